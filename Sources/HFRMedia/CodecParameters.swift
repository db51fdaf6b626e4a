import CFFmpeg

/// Filling `AVCodecParameters` for streams hfr encodes itself.
public enum CodecParameters {
    /// H.264 video of the given size, with `extradata` (SPS/PPS, Annex B or avcC) copied in.
    public static func h264(
        _ parameters: UnsafeMutablePointer<AVCodecParameters>, width: Int, height: Int, extradata: [UInt8]
    ) {
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = AV_CODEC_ID_H264
        parameters.pointee.width = Int32(width)
        parameters.pointee.height = Int32(height)
        parameters.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        setExtradata(parameters, extradata)
    }

    /// Copies `bytes` into FFmpeg-owned, padded extradata.
    public static func setExtradata(_ parameters: UnsafeMutablePointer<AVCodecParameters>, _ bytes: [UInt8]) {
        av_freep(&parameters.pointee.extradata)
        guard let buffer = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else { return }
        let typed = buffer.assumingMemoryBound(to: UInt8.self)
        typed.update(from: bytes, count: bytes.count)
        parameters.pointee.extradata = typed
        parameters.pointee.extradata_size = Int32(bytes.count)
    }
}
