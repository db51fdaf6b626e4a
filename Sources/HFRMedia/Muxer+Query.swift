import CFFmpeg

extension Muxer {
    /// Whether libavformat's `format` muxer (e.g. "mp4", "mov", "matroska") can store `codecID`
    /// (`StreamInfo.codecID`): `avformat_query_codec`. Unknown formats and undecided answers: false.
    public static func format(_ format: String, accepts codecID: UInt32) -> Bool {
        guard let output = av_guess_format(format, nil, nil) else { return false }
        return avformat_query_codec(output, AVCodecID(codecID), FF_COMPLIANCE_NORMAL) == 1
    }

    /// The container's libavformat name ("mp4", "mov", "matroska").
    public var formatName: String { String(cString: context.pointee.oformat.pointee.name) }

    /// Whether this muxer's container can store `codecID`.
    public func accepts(codecID: UInt32) -> Bool {
        avformat_query_codec(context.pointee.oformat, AVCodecID(codecID), FF_COMPLIANCE_NORMAL) == 1
    }

    /// Gives stream `index` the input's codec tag (`hvc1` rather than `hev1`, a ProRes flavour…)
    /// where this container allows it: the tag names this codec in the container, or the container
    /// has no tag of its own for it (FFmpeg's stream-copy rule). Else the muxer picks its own.
    public func keepCodecTag(of parameters: CodecParameters, ofStream index: Int) {
        let tag = parameters.pointer.pointee.codec_tag
        let codec = parameters.pointer.pointee.codec_id
        guard tag != 0 else { return }
        var own: UInt32 = 0
        let tables = context.pointee.oformat.pointee.codec_tag
        guard tables == nil || av_codec_get_id(tables, tag) == codec || av_codec_get_tag2(tables, codec, &own) == 0
        else { return }
        context.pointee.streams[index]!.pointee.codecpar.pointee.codec_tag = tag
    }
}
