import CFFmpeg

/// An output container — libavformat's muxer for an output's extension — and what hfr can write
/// into it: which codecs it holds (libavformat's own `avformat_query_codec`, corrected where FFmpeg
/// 5.1's muxers answer wrong), how it stores rotation, edit lists, the capture-rate tag, timecode
/// and attachments, and how finely it counts time. Container names are compared here and nowhere
/// else.
public struct Container: Sendable, Hashable, CustomStringConvertible {
    /// libavformat's muxer name ("mp4", "mov", "matroska", "webm", "avi", "mpegts").
    public let name: String

    /// MP4 (ISO BMFF).
    public static let mp4 = Container(name: "mp4")
    /// QuickTime MOV.
    public static let mov = Container(name: "mov")
    /// Matroska (.mkv).
    public static let matroska = Container(name: "matroska")
    /// WebM (Matroska restricted to VP8, VP9, AV1, Vorbis and Opus).
    public static let webm = Container(name: "webm")

    /// The containers hfr records to: they hold H.264 with `sdtp`/temporal layers, ALAC and AAC and
    /// the tags hfr stores, by their extension. Others libav knows (.avi, .ts…) are refused before
    /// any work.
    public static let recordExtensions = ["mp4", "mov", "mkv"]
    /// Exports also write WebM (VP8, VP9 or AV1; the audio retimed to Vorbis).
    public static let exportExtensions = recordExtensions + ["webm"]

    init(name: String) { self.name = name }

    /// The container libavformat picks for `path`'s extension ("x.mkv": Matroska); MP4 when it
    /// knows none (`hasKnownExtension` refuses those first).
    public init(output path: String) {
        guard let format = av_guess_format(nil, path, nil) else {
            self = .mp4
            return
        }
        self.init(name: String(cString: format.pointee.name))
    }

    /// libavformat's muxer name, as `description` (messages such as "mp4 cannot store it").
    public var description: String { name }

    /// How messages name it: "MP4", "MOV", "MKV", "WebM", "AVI", "MPEGTS".
    public var displayName: String {
        switch name {
        case "matroska": "MKV"
        case "webm": "WebM"
        default: name.uppercased()
        }
    }

    /// The extension hfr writes it under ("mkv" for Matroska); nil for a container hfr does not write.
    public var fileExtension: String? {
        switch name {
        case "matroska": "mkv"
        case "mp4", "mov", "webm": name
        default: nil
        }
    }

    /// The ISO base media file format family (MP4, MOV): edit lists, `udta`/`mdta` tags, a display
    /// matrix, `sdtp` and `tmcd` tracks.
    public var isISO: Bool { name == "mp4" || name == "mov" }

    /// Matroska or WebM: FFmpeg 5.1's Matroska muxer, which counts time in milliseconds.
    public var isMatroska: Bool { name == "matroska" || name == "webm" }

    /// Whether it hides frames before a cut with an edit list (MP4, MOV): a range may then start
    /// between keyframes without re-encoding, and durations count the presented frames only.
    public var hasEditLists: Bool { isISO }

    /// Whether it stores the float capture-rate tag (`com.android.capture.fps` in `udta`/`mdta`).
    public var holdsCaptureRateTag: Bool { isISO }

    /// Whether it holds a timecode track (`tmcd`); Matroska keeps the timecode as a tag only.
    public var holdsTimecodeTrack: Bool { isISO }

    /// Whether it holds attached files (fonts, cover art as attachments): Matroska, not WebM.
    public var holdsAttachments: Bool { name == "matroska" }

    /// Whether a track's display rotation fits in it, where it goes: MP4/MOV keep the whole display
    /// matrix; Matroska a quarter turn, as a `Projection` roll (`MatroskaRotationPatch`); WebM and the
    /// others none.
    public enum Rotation: Sendable {
        /// The track header's display matrix: any rotation or flip.
        case displayMatrix
        /// A quarter turn, as a `Projection` roll.
        case quarterTurns
        /// No rotation at all.
        case none
    }

    /// How it stores a display rotation.
    public var rotation: Rotation {
        if isISO { return .displayMatrix }
        return name == "matroska" ? .quarterTurns : .none
    }

    /// Its time tick where FFmpeg 5.1 fixes one for every stream: Matroska's millisecond
    /// (`MatroskaTick` makes it finer); nil where the stream time bases are the streams' own.
    public var fixedTick: MatroskaTick? { isMatroska ? .millisecond : nil }

    /// Whether it keeps lossless audio of codec `codec` (FFmpeg's name) as it is: MP4 stores no PCM
    /// and FLAC only experimentally; MOV no FLAC.
    public func keepsLosslessAudio(_ codec: String) -> Bool {
        if codec.hasPrefix("pcm_") { return name != "mp4" }
        if codec == "flac" { return !isISO }
        return true
    }
}

extension Container {
    /// Whether a demuxer of libavformat's `formatName` ("mov,mp4,m4a,3gp,3g2,mj2") reads ISO BMFF.
    public static func isISO(demuxer formatName: String) -> Bool {
        formatName.split(separator: ",").contains { $0 == "mov" || $0 == "mp4" }
    }

    /// Whether `output`'s extension (any case) is one of `extensions`: checked before any work.
    public static func hasKnownExtension(_ output: String, among extensions: [String] = recordExtensions) -> Bool {
        let name = output.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// "`.mp4`, `.mov` or `.mkv`" for `extensions`, as error messages name them.
    public static func listed(_ extensions: [String]) -> String {
        let dotted = extensions.map { "." + $0 }
        return dotted.count < 2 ? dotted.joined() : dotted.dropLast().joined(separator: ", ") + " or " + dotted.last!
    }

    /// The containers hfr exports to (by extension) that hold `codecID`, in `exportExtensions`' order.
    public static func exportContainers(holding codecID: UInt32) -> [Container] {
        exportExtensions.map { Container(output: "x." + $0) }.filter { $0.holds(codecID: codecID) }
    }

    /// The extensions (".mp4, .mov or .mkv") of the containers hfr exports to that hold the codec
    /// libavcodec names `codec` ("vp9"), as messages list them.
    public static func listedExtensions(holding codec: String) -> String {
        let id = avcodec_descriptor_get_by_name(codec)?.pointee.id.rawValue ?? AV_CODEC_ID_NONE.rawValue
        return listed(exportContainers(holding: id).compactMap(\.fileExtension))
    }
}

extension Container {
    /// Whether it surely stores codec `codecID` (`StreamInfo.codecID`): `avformat_query_codec` says
    /// yes, corrected where FFmpeg 5.1's muxers refuse at the header what their table lists, or
    /// write by tag what their query names not. False for no codec (a `tmcd` or GoPro `gpmd` track)
    /// and unknown containers.
    public func holds(codecID: UInt32) -> Bool {
        let codec = AVCodecID(codecID)
        guard codec != AV_CODEC_ID_NONE, let format = av_guess_format(name, nil, nil), !refuses(codec) else {
            return false
        }
        return avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL) == 1 || storesByTag(codec)
    }

    /// Whether it stores the codec libavcodec names `codec` ("h264", "vp9", "prores").
    public func holds(codecNamed codec: String) -> Bool {
        avcodec_descriptor_get_by_name(codec).map { holds(codecID: $0.pointee.id.rawValue) } ?? false
    }

    /// Whether it stores H.264, what hfr's layered re-encodes write (WebM does not).
    public var holdsH264: Bool { holds(codecID: AV_CODEC_ID_H264.rawValue) }

    /// What FFmpeg 5.1's MOV/MP4 muxer refuses when it writes the header though its codec table
    /// lists it: FLAC in MP4 is "experimental"; FLAC, Opus, VP9 and AV1 in MOV are "only supported
    /// in MP4"; VP8 in MOV "is currently not supported".
    func refuses(_ codec: AVCodecID) -> Bool {
        switch (name, codec) {
        case ("mp4", AV_CODEC_ID_FLAC), ("mov", AV_CODEC_ID_FLAC), ("mov", AV_CODEC_ID_OPUS): true
        case ("mov", AV_CODEC_ID_VP9), ("mov", AV_CODEC_ID_AV1), ("mov", AV_CODEC_ID_VP8): true
        default: false
        }
    }

    /// What FFmpeg 5.1's Matroska muxer writes though its query names no Matroska codec ID for it:
    /// a video codec with a RIFF (`V_MS/VFW/FOURCC`) or QuickTime (`V_QUICKTIME`) tag, such as
    /// DNxHD from MXF, and an audio codec with a WAVE tag (`A_MS/ACM`), as `ffmpeg -c copy` does.
    func storesByTag(_ codec: AVCodecID) -> Bool {
        guard name == "matroska" else { return false }
        let tables: [OpaquePointer?] =
            switch avcodec_get_type(codec) {
            case AVMEDIA_TYPE_VIDEO: [avformat_get_riff_video_tags(), avformat_get_mov_video_tags(), nil]
            case AVMEDIA_TYPE_AUDIO: [avformat_get_riff_audio_tags(), nil]
            default: [nil]
            }
        return tables.withUnsafeBufferPointer { av_codec_get_tag($0.baseAddress, codec) != 0 }
    }
}
