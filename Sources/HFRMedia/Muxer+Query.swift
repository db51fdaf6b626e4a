import CFFmpeg

extension Muxer {
    /// The container this muxer writes.
    public var container: Container { Container(name: formatName) }

    /// The container's libavformat name (`Container.name`).
    var formatName: String { String(cString: context.pointee.oformat.pointee.name) }

    /// Whether this muxer's container stores `codecID`. A muxer that cannot tell (MPEG-TS) is
    /// trusted with H.264, HEVC and its own default codec only: it writes others as opaque data.
    public func accepts(codecID: UInt32) -> Bool {
        let format = context.pointee.oformat!
        let codec = AVCodecID(codecID)
        let answer = avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL)
        guard answer < 0 else { return container.holds(codecID: codecID) }
        return codec == AV_CODEC_ID_H264 || codec == AV_CODEC_ID_HEVC || codec == format.pointee.video_codec
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
