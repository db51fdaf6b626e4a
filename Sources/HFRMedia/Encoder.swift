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
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
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
