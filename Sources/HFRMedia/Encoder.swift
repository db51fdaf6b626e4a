import CFFmpeg

/// Owns an encoding `AVCodecContext` from libavcodec (AAC audio, re-encodes): frames in, packets out.
public struct Encoder: ~Copyable {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens encoder `name`, after `configure` has set its parameters on the context.
    init(
        name: String, options: [String: String] = [:],
        configure: (UnsafeMutablePointer<AVCodecContext>) -> Void
    ) throws(AVFailure) {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw AVFailure(
                code: HFR_AVERROR_ENCODER_NOT_FOUND, operation: "avcodec_find_encoder_by_name(\(name))",
                stage: .openingEncoder)
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avcodec_alloc_context3", stage: .encoding)
        }
        configure(ctx)
        let opened = withOptions(options) { avcodec_open2(ctx, codec, &$0) }
        if opened < 0 {
            var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&owned)
            throw AVFailure(code: opened, operation: "avcodec_open2(\(name))", stage: .openingEncoder)
        }
        context = ctx
    }

    deinit {
        if context.pointee.frame_number == 0, String(cString: context.pointee.codec.pointee.name) == "libsvtav1" {
            Encoder.endUnusedStream(context)
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// SVT-AV1 waits forever in its deinit for an end of stream when no frame reached it (an export
    /// failing at the muxer's header or at its input's first packet), and forever for a packet
    /// after an end of stream that ends no frame: it is given one black picture and the end, and
    /// what it gives back is dropped.
    private static func endUnusedStream(_ context: UnsafeMutablePointer<AVCodecContext>) {
        let size = (width: Int(context.pointee.width), height: Int(context.pointee.height))
        guard
            let frame = try? Frame.picture(
                width: size.width, height: size.height, format: PixelFormat(context.pointee.pix_fmt)),
            let packet = av_packet_alloc()
        else { return }
        let buffers = frame.pointer.pointee.buf
        for buffer in [buffers.0, buffers.1, buffers.2, buffers.3] {
            if let b = buffer?.pointee { b.data.initialize(repeating: 0, count: Int(b.size)) }
        }
        frame.pointer.pointee.pts = 0
        _ = avcodec_send_frame(context, frame.pointer)
        while avcodec_receive_packet(context, packet) >= 0 { av_packet_unref(packet) }
        _ = avcodec_send_frame(context, nil)
        while avcodec_receive_packet(context, packet) >= 0 { av_packet_unref(packet) }
        var dropped: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&dropped)
    }

    /// Samples per audio frame the encoder wants (0 when any size is fine).
    public var frameSize: Int { Int(context.pointee.frame_size) }

    /// Samples of encoder delay at the start (AAC priming), which the container's edit list hides.
    public var initialPadding: Int { Int(context.pointee.initial_padding) }

    public var timeBase: Rational { Rational(context.pointee.time_base) ?? Rational(1, 1) }

    /// The encoder's parameters (after open), for the stream it feeds.
    public func parameters() throws(AVFailure) -> CodecParameters {
        try CodecParameters(encoder: context)
    }

    /// Sends a frame, or nil to start flushing.
    public func send(_ frame: Frame?) throws(AVFailure) -> Drain<Void> {
        try drainState(avcodec_send_frame(context, frame?.pointer), "avcodec_send_frame", .encoding)
    }

    /// Receives the next encoded packet into `packet`.
    public func receive(into packet: Packet) throws(AVFailure) -> Drain<Void> {
        try drainState(avcodec_receive_packet(context, packet.pointer), "avcodec_receive_packet", .encoding)
    }
}
