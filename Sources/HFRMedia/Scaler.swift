import CFFmpeg

/// Owns a `SwsContext`: converts pictures between pixel formats and sizes (e.g. YUYV → I420).
struct Scaler: ~Copyable {
    let context: OpaquePointer
    let output: (width: Int, height: Int, format: PixelFormat)

    /// Prepares a conversion from one picture geometry/format to another.
    init(
        from input: (width: Int, height: Int, format: PixelFormat),
        to output: (width: Int, height: Int, format: PixelFormat)
    ) throws(AVFailure) {
        guard
            let ctx = sws_getContext(
                Int32(input.width), Int32(input.height), input.format.av,
                Int32(output.width), Int32(output.height), output.format.av,
                SWS_BILINEAR, nil, nil, nil)
        else { throw AVFailure(code: hfr_averror(EINVAL), operation: "sws_getContext", stage: .encoding) }
        context = ctx
        self.output = output
    }

    deinit { sws_freeContext(context) }

    /// Converts `source` into `destination`, allocating the destination's buffers.
    func scale(_ source: Frame, into destination: Frame) throws(AVFailure) {
        destination.unref()
        destination.pointer.pointee.width = Int32(output.width)
        destination.pointer.pointee.height = Int32(output.height)
        destination.pointer.pointee.format = output.format.rawValue
        try check(av_frame_get_buffer(destination.pointer, 0), "av_frame_get_buffer", .encoding)
        try check(
            sws_scale_frame(context, destination.pointer, source.pointer), "sws_scale_frame")
        destination.pointer.pointee.pts = source.pointer.pointee.pts
    }
}
