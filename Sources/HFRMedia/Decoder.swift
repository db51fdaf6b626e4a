import CFFmpeg

/// Owns a decoding `AVCodecContext`: packets in, frames out.
public struct Decoder: ~Copyable {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens the decoder FFmpeg has for the stream described by `parameters`; `skipsLoopFilter`
    /// leaves out deblocking (faster, for measuring pictures rather than showing them).
    public init(
        parameters: CodecParameters, timeBase: Rational, threads: Int = 0, skipsLoopFilter: Bool = false
    ) throws(AVFailure) {
        guard let codec = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw AVFailure(code: HFR_AVERROR_DECODER_NOT_FOUND, operation: "avcodec_find_decoder", stage: .decoding)
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avcodec_alloc_context3", stage: .decoding)
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
        let copied = avcodec_parameters_to_context(ctx, parameters.pointer)
        if copied < 0 {
            avcodec_free_context(&owned)
            throw AVFailure(code: copied, operation: "avcodec_parameters_to_context", stage: .decoding)
        }
        if let tb = timeBase.avRational { ctx.pointee.pkt_timebase = tb }
        ctx.pointee.thread_count = Int32(threads)
        if skipsLoopFilter { ctx.pointee.skip_loop_filter = AVDISCARD_ALL }
        let opened = avcodec_open2(ctx, codec, nil)
        if opened < 0 {
            avcodec_free_context(&owned)
            throw AVFailure(code: opened, operation: "avcodec_open2", stage: .decoding)
        }
        context = ctx
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Sends a packet, or nil to start flushing. `.needsInput` here means "receive frames first".
    public func send(_ packet: Packet?) throws(AVFailure) -> Drain<Void> {
        try drainState(avcodec_send_packet(context, packet?.pointer), "avcodec_send_packet", .decoding)
    }

    /// Receives the next decoded frame into `frame`.
    public func receive(into frame: Frame) throws(AVFailure) -> Drain<Void> {
        try drainState(avcodec_receive_frame(context, frame.pointer), "avcodec_receive_frame", .decoding)
    }
}
