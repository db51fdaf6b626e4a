import CFFmpeg

/// An owned copy of a stream's `AVCodecParameters`: what a decoder opens from and what a muxer's
/// stream is created with. Streams hand out copies; encoders produce them after opening.
///
/// `@unchecked Sendable`: the C struct is written only while this object is built and is read-only
/// afterwards, so sharing it between threads is safe although the checker cannot see it.
public final class CodecParameters: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVCodecParameters>

    private init() throws(AVFailure) {
        guard let p = avcodec_parameters_alloc() else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avcodec_parameters_alloc")
        }
        pointer = p
    }

    /// A copy of `source` (a stream's or another owner's parameters).
    convenience init(copying source: UnsafePointer<AVCodecParameters>) throws(AVFailure) {
        try self.init()
        try check(avcodec_parameters_copy(pointer, source), "avcodec_parameters_copy")
    }

    /// The parameters of an opened encoder.
    convenience init(encoder: UnsafePointer<AVCodecContext>) throws(AVFailure) {
        try self.init()
        try check(avcodec_parameters_from_context(pointer, encoder), "avcodec_parameters_from_context")
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&p)
    }

    /// H.264 video of the given size with `extradata` (SPS/PPS, Annex B or avcC) copied in: the
    /// streams hfr encodes itself.
    public static func h264(width: Int, height: Int, extradata: [UInt8]) throws(AVFailure) -> CodecParameters {
        let parameters = try video(AV_CODEC_ID_H264, width: width, height: height)
        parameters.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        try parameters.setExtradata(extradata)
        return parameters
    }

    /// Motion JPEG pictures of the given size (an MJPEG camera mode).
    public static func mjpeg(width: Int, height: Int) throws(AVFailure) -> CodecParameters {
        try video(AV_CODEC_ID_MJPEG, width: width, height: height)
    }

    private static func video(_ codec: AVCodecID, width: Int, height: Int) throws(AVFailure) -> CodecParameters {
        let parameters = try CodecParameters()
        let p = parameters.pointer
        p.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        p.pointee.codec_id = codec
        p.pointee.width = Int32(width)
        p.pointee.height = Int32(height)
        return parameters
    }

    /// FFmpeg's short codec name, e.g. "h264".
    public var codecName: String { String(cString: avcodec_get_name(pointer.pointee.codec_id)) }

    /// Codec-specific setup bytes (for H.264 in MP4: the avcC record).
    public var extradata: [UInt8] {
        guard let data = pointer.pointee.extradata else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.extradata_size)))
    }

    /// A copy whose extradata is `extradata` (the rest as here).
    public func replacingExtradata(with extradata: [UInt8]) throws(AVFailure) -> CodecParameters {
        let copy = try CodecParameters(copying: pointer)
        try copy.setExtradata(extradata)
        return copy
    }

    /// Copies `bytes` into FFmpeg-owned, padded extradata.
    func setExtradata(_ bytes: [UInt8]) throws(AVFailure) {
        av_freep(&pointer.pointee.extradata)
        pointer.pointee.extradata_size = 0
        guard let buffer = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_mallocz")
        }
        let typed = buffer.assumingMemoryBound(to: UInt8.self)
        typed.update(from: bytes, count: bytes.count)
        pointer.pointee.extradata = typed
        pointer.pointee.extradata_size = Int32(bytes.count)
    }
}
