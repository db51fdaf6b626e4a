import HFRMedia

/// What the export does with one stream of the input, decided before anything is written: copied
/// as it is, retimed, converted or dropped; the codec written; and, for anything not copied as it
/// is, why. `ExportPlan.tracks` holds one per input stream in input order; the pass carries them
/// out and decides nothing of its own (`ExportPass`).
public struct TrackPlan: Sendable {
    /// What happens to a stream.
    public enum Action: String, Sendable {
        /// Packets copied, times only moved to the output's start (or a file attached as it is).
        case copy
        /// Packets copied, their times through the time map (video frames kept per layer).
        case retime
        /// Decoded and encoded again, or written in another form (a timecode track as a tag).
        case convert
        /// Left out; `reason` says why.
        case drop
    }

    /// Which of the pass's outputs writes the stream.
    enum Writer: Sendable {
        /// The exported video (`VideoOutput`).
        case video
        /// An audio track (`AudioOutput`).
        case audio
        /// Packets retimed as they are (`ExtraTrackOutput`): subtitles, data, another video track.
        case packets
        /// A file attached to the output (a font), or an attached picture stored as one.
        case attachment
        /// The start timecode, written as the video's `timecode` tag (MP4/MOV make a track of it).
        case timecode
        /// Nothing: dropped.
        case none
    }

    /// Input stream index (ffprobe's).
    public let input: Int
    /// "video", "audio", "subtitle", "data" or "attachment" (an attached picture is "video", as
    /// ffprobe lists it).
    public let kind: String
    /// The codec written (FFmpeg's name), the input's for a stream copied or dropped.
    public let codec: String
    /// What the export does with it.
    public let action: Action
    /// Why a stream is retimed, converted or dropped; nil when copied as it is.
    public let reason: String?
    let writer: Writer
    let stream: StreamInfo
    /// Retimed audio: the encoder that writes it (`Encoder.retimedAudioCodec`).
    let encoder: String?

    init(
        _ stream: StreamInfo, codec: String? = nil, _ action: Action, _ writer: Writer, reason: String? = nil,
        encoder: String? = nil
    ) {
        input = stream.index
        kind = TrackPlan.kind(of: stream)
        self.codec = codec ?? stream.codecName
        self.action = action
        self.reason = reason
        self.writer = action == .drop ? .none : writer
        self.stream = stream
        self.encoder = encoder
    }

    /// A dropped stream.
    static func drop(_ stream: StreamInfo, _ reason: String) -> TrackPlan {
        TrackPlan(stream, .drop, .none, reason: reason)
    }

    /// The kind as the plan reports it: ffprobe's `codec_type`, attachments by their own name.
    static func kind(of stream: StreamInfo) -> String {
        if stream.isAttachment { return "attachment" }
        return stream.kind == .other ? StreamInfo.Kind.data.rawValue : stream.kind.rawValue
    }

    /// The note on stderr naming a dropped stream and why.
    var dropNote: String? {
        guard action == .drop, let reason else { return nil }
        return "\(kind) track #\(input) (\(codec)) is left out: \(reason)"
    }
}

extension TrackPlan {
    /// What the plan is made from besides the video's plan: the input's streams, the output
    /// container (libavformat's name) and the export's options.
    struct Inputs {
        let streams: [StreamInfo]
        let video: StreamInfo
        let settings: ExportSettings
        let container: Container
    }

    /// One plan per input stream, in input order.
    static func plans(_ inputs: Inputs, plan: ExportPlan) -> [TrackPlan] {
        inputs.streams.map { s in
            switch (inputs.settings.splitPart, s.index == inputs.video.index) {
            case (.video, false): return drop(s, "a split job's video part writes only the video")
            case (.rest, true): return drop(s, "a split job's video parts write it")
            default: break
            }
            if s.index == inputs.video.index { return video(s, plan: plan) }
            if let why = TrackChoice.leftOutReason(s, video: inputs.video) { return drop(s, why) }
            if s.isAttachment { return attachment(s, container: inputs.container) }
            if s.isTimecode { return TrackPlan.timecode(s, plan.timecode, container: inputs.container) }
            switch s.kind {
            case .audio: return audio(s, inputs.settings, container: inputs.container, plan: plan)
            case .video where s.isAttachedPicture: return picture(s, container: inputs.container)
            case .video: return otherVideo(s, inputs.settings, container: inputs.container, plan: plan)
            case .subtitle, .data, .other: return packets(s, container: inputs.container, plan: plan)
            }
        }
    }

    /// The exported video: copied (every frame, at speed 1), retimed (frames kept per layer),
    /// or re-encoded (whole, or the stretches a copy cannot reach).
    static func video(_ s: StreamInfo, plan: ExportPlan) -> TrackPlan {
        if plan.layers == nil {
            let codec = plan.delivery.map { Encoder.codecName(ofEncoder: $0.codec) } ?? "h264"
            return TrackPlan(s, codec: codec, .convert, .video, reason: plan.reencodeReason ?? "re-encoded")
        }
        if plan.isSpliced {
            return TrackPlan(
                s, .convert, .video,
                reason: "copied, with the stretches a copy cannot reach re-encoded: \(plan.reencodeReason ?? "")")
        }
        let keepsAll = plan.layers?.maxLevels.allSatisfy { $0 >= plan.levelCountKept - 1 } ?? true
        if plan.copiesAudio, keepsAll { return TrackPlan(s, .copy, .video) }
        return TrackPlan(
            s, .retime, .video,
            reason: (keepsAll ? "every frame kept" : "frames kept per layer")
                + ", their times through the time map")
    }

    /// An audio track: copied at speed 1 where the container stores its codec, else retimed
    /// (stretched) into its own codec or converted into one the container stores.
    static func audio(
        _ s: StreamInfo, _ settings: ExportSettings, container: Container, plan: ExportPlan
    ) -> TrackPlan {
        if settings.audio == .mute { return drop(s, "muted (--audio mute)") }
        // Copied at speed 1 throughout into a container that stores its codec; else through the
        // retimer (at speed 1 too), into what the container stores.
        if plan.copiesAudio, container.holds(codecID: s.codecID) { return TrackPlan(s, .copy, .audio) }
        let encoder = Encoder.retimedAudioCodec(source: s, format: container)
        let codec = Encoder.codecName(ofEncoder: encoder)
        let conversion = AudioOutput.conversionNote(s, encoder: encoder, container: container)
        if plan.copiesAudio {
            return TrackPlan(
                s, codec: codec, .convert, .audio, reason: conversion ?? "decoded and encoded again", encoder: encoder)
        }
        let stretched = "stretched to the time map (\(settings.audio.rawValue))"
        let reason = conversion.map { "\(stretched), \($0)" } ?? stretched
        return TrackPlan(
            s, codec: codec, codec == s.codecName ? .retime : .convert, .audio, reason: reason, encoder: encoder)
    }

    /// Subtitles and data: packets retimed where the container stores their codec.
    static func packets(_ s: StreamInfo, container: Container, plan: ExportPlan) -> TrackPlan {
        guard container.holds(codecID: s.codecID) else {
            return drop(s, "\(container.displayName) cannot store it")
        }
        if plan.copiesAudio { return TrackPlan(s, .copy, .packets) }
        return TrackPlan(s, .retime, .packets, reason: "its times through the time map, as the video's")
    }

    /// Another video track: every frame kept, its times through the time map. A range would cut it
    /// between keyframes (only the exported video's cut is placed at one), so a range leaves it out.
    static func otherVideo(
        _ s: StreamInfo, _ settings: ExportSettings, container: Container, plan: ExportPlan
    ) -> TrackPlan {
        guard container.holds(codecID: s.codecID) else {
            return drop(s, "\(container.displayName) cannot store it")
        }
        guard settings.range == nil else {
            return drop(s, "--range would cut this second video track between keyframes")
        }
        if plan.copiesAudio { return TrackPlan(s, .copy, .packets) }
        return TrackPlan(s, .retime, .packets, reason: "every frame kept, its times through the time map")
    }

    /// A file attached to the input (a font): attached as it is where the container holds files.
    static func attachment(_ s: StreamInfo, container: Container) -> TrackPlan {
        guard container.holdsAttachments else {
            return drop(s, "\(container.displayName) cannot store attachments")
        }
        return TrackPlan(s, .copy, .attachment)
    }

    /// An attached picture (cover art): attached as it is where the container holds files. MP4 and
    /// MOV keep cover art only among iTunes tags, which hfr's `mdta` tags replace.
    static func picture(_ s: StreamInfo, container: Container) -> TrackPlan {
        if container.holdsAttachments, TrackCapability.pictureMIMEType(codecID: s.codecID) != nil {
            return TrackPlan(s, .copy, .attachment)
        }
        if container.holdsTimecodeTrack {
            return drop(s, "\(container.displayName) keeps cover art among iTunes tags, which hfr's mdta tags replace")
        }
        return drop(s, "\(container.displayName) cannot store an attached picture")
    }

    /// A MOV timecode track: its start timecode moved to the export's start, at the output rate.
    static func timecode(_ s: StreamInfo, _ timecode: StartTimecode, container: Container) -> TrackPlan {
        guard timecode.value != nil else {
            return drop(
                s,
                timecode.note == nil
                    ? "it holds no start timecode" : "its start timecode cannot be counted at the output rate")
        }
        if container.holdsTimecodeTrack {
            return TrackPlan(
                s, .retime, .timecode, reason: "its start timecode moved to the export's start, at the output rate")
        }
        let reason = "written as the video's timecode tag: \(container.displayName) has no timecode track"
        return TrackPlan(s, .convert, .timecode, reason: reason)
    }
}
