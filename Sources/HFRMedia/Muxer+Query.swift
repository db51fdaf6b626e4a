import CFFmpeg

extension Muxer {
    /// Whether libavformat's `format` muxer (e.g. "mp4", "mov", "matroska") surely stores `codecID`
    /// (`StreamInfo.codecID`): `avformat_query_codec` says yes. Unknown formats: false.
    public static func format(_ format: String, accepts codecID: UInt32) -> Bool {
        guard let output = av_guess_format(format, nil, nil), !refuses(format, AVCodecID(codecID)) else { return false }
        return avformat_query_codec(output, AVCodecID(codecID), FF_COMPLIANCE_NORMAL) == 1
            || storesByTag(format, AVCodecID(codecID))
    }

    /// What FFmpeg 5.1's Matroska muxer writes though its query names no Matroska codec ID for it:
    /// a video codec with a RIFF (`V_MS/VFW/FOURCC`) or QuickTime (`V_QUICKTIME`) tag, such as
    /// DNxHD from MXF, and an audio codec with a WAVE tag (`A_MS/ACM`), as `ffmpeg -c copy` does.
    static func storesByTag(_ format: String, _ codec: AVCodecID) -> Bool {
        guard format == "matroska" else { return false }
        let tables: [OpaquePointer?] =
            switch avcodec_get_type(codec) {
            case AVMEDIA_TYPE_VIDEO: [avformat_get_riff_video_tags(), avformat_get_mov_video_tags(), nil]
            case AVMEDIA_TYPE_AUDIO: [avformat_get_riff_audio_tags(), nil]
            default: [nil]
            }
        return tables.withUnsafeBufferPointer { av_codec_get_tag($0.baseAddress, codec) != 0 }
    }

    /// What FFmpeg 5.1's MOV/MP4 muxer refuses when it writes the header though its codec table
    /// lists it: FLAC in MP4 is "experimental", FLAC and Opus in MOV are "only supported in MP4".
    static func refuses(_ format: String, _ codec: AVCodecID) -> Bool {
        switch (format, codec) {
        case ("mp4", AV_CODEC_ID_FLAC), ("mov", AV_CODEC_ID_FLAC), ("mov", AV_CODEC_ID_OPUS): true
        default: false
        }
    }

    /// Whether container `format` stores H.264, what hfr's re-encodes write (WebM does not).
    public static func formatAcceptsH264(_ format: String) -> Bool {
        self.format(format, accepts: AV_CODEC_ID_H264.rawValue)
    }

    /// The container's libavformat name ("mp4", "mov", "matroska").
    public var formatName: String { String(cString: context.pointee.oformat.pointee.name) }

    /// Whether this muxer's container stores `codecID`. A muxer that cannot tell (MPEG-TS) is
    /// trusted with H.264, HEVC and its own default codec only: it writes others as opaque data.
    public func accepts(codecID: UInt32) -> Bool {
        let format = context.pointee.oformat!
        let codec = AVCodecID(codecID)
        if Muxer.refuses(formatName, codec) { return false }
        let answer = avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL)
        guard answer < 0 else { return answer == 1 || Muxer.storesByTag(formatName, codec) }
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
