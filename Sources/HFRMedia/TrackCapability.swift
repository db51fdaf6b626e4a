import CFFmpeg

/// An attached picture (cover art) written as an attachment, where the container holds files
/// (`Container.holdsAttachments`): its MIME type and its bytes as an attachment stream's.
public enum TrackCapability {
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
