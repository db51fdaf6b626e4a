import CFFmpeg

extension Muxer {
    /// Sets a tag of output stream `index` (`language`, `timecode`, …). Call before `writeHeader`.
    public func setMetadata(_ key: String, _ value: String, ofStream index: Int) {
        av_dict_set(&context.pointee.streams[index]!.pointee.metadata, key, value, 0)
    }

    /// Gives output stream `index` what names input track `info` to a viewer: its language, title
    /// and handler name, an attachment's file name and MIME type, and its disposition (default,
    /// forced …). Call before `writeHeader`.
    public func keepIdentity(of info: StreamInfo, onStream index: Int) {
        for key in ["language", "title", "handler_name", "filename", "mimetype"] {
            if let value = info.metadata[key] { setMetadata(key, value, ofStream: index) }
        }
        context.pointee.streams[index]!.pointee.disposition = info.disposition
    }
}
