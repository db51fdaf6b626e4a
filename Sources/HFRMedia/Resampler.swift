import CFFmpeg

/// Owns a `SwrContext`: converts audio between sample formats, layouts and rates.
public struct Resampler: ~Copyable {
    let context: OpaquePointer

    /// Prepares a conversion; layouts are FFmpeg channel-layout strings such as "mono", "stereo".
    init(
        from input: (layout: String, format: AVSampleFormat, rate: Int),
        to output: (layout: String, format: AVSampleFormat, rate: Int)
    ) throws(AVFailure) {
        var inLayout = AVChannelLayout()
        var outLayout = AVChannelLayout()
        try check(
            av_channel_layout_from_string(&inLayout, input.layout), "av_channel_layout_from_string(\(input.layout))")
        defer { av_channel_layout_uninit(&inLayout) }
        try check(
            av_channel_layout_from_string(&outLayout, output.layout), "av_channel_layout_from_string(\(output.layout))")
        defer { av_channel_layout_uninit(&outLayout) }
        try self.init(from: (inLayout, input.format, input.rate), to: (outLayout, output.format, output.rate))
    }

    /// Prepares a conversion between exact layouts (as frames carry them, unspecified orders included).
    init(
        from input: (layout: AVChannelLayout, format: AVSampleFormat, rate: Int),
        to output: (layout: AVChannelLayout, format: AVSampleFormat, rate: Int)
    ) throws(AVFailure) {
        var inLayout = input.layout
        var outLayout = output.layout
        var ctx: OpaquePointer? = nil
        try check(
            swr_alloc_set_opts2(
                &ctx, &outLayout, output.format, Int32(output.rate),
                &inLayout, input.format, Int32(input.rate), 0, nil),
            "swr_alloc_set_opts2")
        let initialized = swr_init(ctx)
        if initialized < 0 {
            swr_free(&ctx)
            throw AVFailure(code: initialized, operation: "swr_init", stage: .encoding)
        }
        context = ctx!
    }

    /// Planar float audio of `channels` channels resampled from `inputRate` to `outputRate`.
    public init(planarFloatChannels channels: Int, from inputRate: Int, to outputRate: Int) throws(AVFailure) {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        try self.init(from: (layout, AV_SAMPLE_FMT_FLTP, inputRate), to: (layout, AV_SAMPLE_FMT_FLTP, outputRate))
    }

    deinit {
        var owned: OpaquePointer? = context
        swr_free(&owned)
    }

    /// Converts `source` (or flushes, when nil) into `destination`, whose layout/format/rate are set.
    func convert(_ source: Frame?, into destination: Frame) throws(AVFailure) {
        try check(swr_convert_frame(context, destination.pointer, source?.pointer), "swr_convert_frame", .encoding)
    }
}

extension Resampler {
    /// Output samples `swr_convert` may produce for `count` more input samples (with what it holds).
    public func outputCapacity(forInput count: Int) -> Int {
        Int(max(0, swr_get_out_samples(context, Int32(count)))) + 16
    }

    /// Converts `count` samples from planar `input` (nil count: flush) into `output`; returns the
    /// samples written per channel.
    public func convert(
        _ input: [UnsafeRawPointer?], count: Int?, into output: [UnsafeMutableRawPointer?], capacity: Int
    ) throws(AVFailure) -> Int {
        var ins = input.map { $0?.assumingMemoryBound(to: UInt8.self) }
        var outs = output.map { $0?.assumingMemoryBound(to: UInt8.self) }
        let result = ins.withUnsafeMutableBufferPointer { i in
            outs.withUnsafeMutableBufferPointer { o in
                swr_convert(
                    context, o.baseAddress, Int32(capacity), count == nil ? nil : i.baseAddress, Int32(count ?? 0))
            }
        }
        return Int(try check(result, "swr_convert", .encoding))
    }
}
