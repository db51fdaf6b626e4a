import CFFmpeg

/// What an output container holds besides its streams' codecs: files attached to it (fonts, cover
/// art). The export's plan asks before it keeps an attachment or an attached picture.
public enum TrackCapability {
    /// Whether libavformat's `format` muxer writes attachment streams into the file: asked of the
    /// muxer itself, which writes (into memory) the header of a file holding one font attachment,
    /// whose name must be in it (WebM's muxer ignores attachments, MP4's refuses them).
    public static func storesAttachments(_ format: String) -> Bool {
        var made: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&made, nil, format, nil) >= 0, let context = made else { return false }
        defer { avformat_free_context(context) }
        let name = "hfr-probe.ttf"
        guard let stream = avformat_new_stream(context, nil),
            let extradata = av_mallocz(8 + Int(AV_INPUT_BUFFER_PADDING_SIZE)),
            avio_open_dyn_buf(&context.pointee.pb) >= 0
        else { return false }
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_ATTACHMENT
        stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_TTF
        stream.pointee.codecpar.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        stream.pointee.codecpar.pointee.extradata_size = 8
        av_dict_set(&stream.pointee.metadata, "filename", name, 0)
        av_dict_set(&stream.pointee.metadata, "mimetype", "font/ttf", 0)
        let written = avformat_write_header(context, nil)
        var bytes: UnsafeMutablePointer<UInt8>?
        let count = avio_close_dyn_buf(context.pointee.pb, &bytes)
        context.pointee.pb = nil
        defer { av_free(bytes) }
        guard written >= 0, let bytes, count > 0 else { return false }
        let header = UnsafeBufferPointer(start: bytes, count: Int(count))
        let probe = Array(name.utf8)
        return (0...(header.count - probe.count)).contains { i in header[i..<(i + probe.count)].elementsEqual(probe) }
    }

    /// Whether `format`'s muxer makes a timecode track of the video's `timecode` tag: FFmpeg 5.1's
    /// MOV family (MP4, MOV and their kin), whose muxers share one implementation.
    public static func writesTimecodeTrack(_ format: String) -> Bool {
        guard let output = av_guess_format(format, nil, nil) else { return false }
        return ["mp4", "mov", "ipod", "ismv", "f4v", "3gp", "3g2", "psp"].contains(String(cString: output.pointee.name))
    }

    /// The MIME type an attached picture of `codecID` is stored under as an attachment.
    public static func pictureMIMEType(codecID: UInt32) -> String? {
        switch AVCodecID(codecID) {
        case AV_CODEC_ID_MJPEG: "image/jpeg"
        case AV_CODEC_ID_PNG: "image/png"
        case AV_CODEC_ID_BMP: "image/bmp"
        case AV_CODEC_ID_GIF: "image/gif"
        case AV_CODEC_ID_WEBP: "image/webp"
        default: nil
        }
    }
}

extension Demuxer {
    /// Attached picture `index` (cover art) as an attachment stream's parameters: its bytes as the
    /// file's; nil when the stream holds no picture.
    public func attachmentParameters(ofPicture index: Int) throws(AVFailure) -> CodecParameters? {
        let stream = context.pointee.streams[index]!
        let picture = stream.pointee.attached_pic
        guard stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0, picture.size > 0, let data = picture.data
        else { return nil }
        let parameters = try CodecParameters(copying: stream.pointee.codecpar)
        parameters.pointer.pointee.codec_type = AVMEDIA_TYPE_ATTACHMENT
        try parameters.setExtradata(Array(UnsafeBufferPointer(start: data, count: Int(picture.size))))
        return parameters
    }
}
