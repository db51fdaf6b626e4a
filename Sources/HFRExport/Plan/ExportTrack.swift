import HFRMedia

/// One track of an export's output as its plan lists it, with what happens to it and what it will
/// hold; or a track of the input the export leaves out, and why.
public struct ExportTrack: Sendable {
    /// What happens to a track.
    public enum Action: String, Sendable {
        /// Packets copied, timestamps only moved to the output's start (speed 1 throughout).
        case copy
        /// Packets copied, timestamps through the time map (video frames kept per layer).
        case retime
        /// Decoded and encoded again (the video; audio converted at speed 1).
        case reencode
        /// Video copied, with the segments a copy cannot reach re-encoded in between.
        case splice
        /// Audio decoded, stretched (`algorithm`) and encoded again.
        case stretch
        /// The timecode track MP4/MOV make from the start timecode, moved to the export's start.
        case timecode
        /// Left out; `reason` says why.
        case drop
    }

    /// Output stream index; nil for a track left out.
    public let index: Int?
    /// Input stream index; nil for a track the container makes (a timecode track without one).
    public let source: Int?
    /// "video", "audio", "subtitle", "data", "other" (attachments and the like).
    public let kind: String
    /// The codec written (FFmpeg's short name), or the input's for a track left out.
    public let codec: String
    public let action: Action
    /// Why it is re-encoded, converted or left out; nil otherwise.
    public let reason: String?
    /// A stretched track's algorithm ("spectral", "time-domain", "varispeed").
    public let algorithm: String?
    /// The input track's language tag.
    public let language: String?
    /// Packets written; nil where an encoder the dry run does not run makes them (retimed audio),
    /// or the container itself (a timecode track).
    public let packets: Int?
    /// Bytes of the packets handed to the muxer; nil where an encoder makes any of them.
    public let bytes: Int64?
    /// Seconds the track lasts: the video's as the file states it (the plan's `outputDuration`), a
    /// retimed audio track's from its samples, any other from its first packet's start to its last
    /// one's end; nil for a track with no packets (or made by the container).
    public let duration: Rational?
    /// Retimed audio: the rate and the exact count of the samples written.
    public let sampleRate: Int?
    public let samples: Int64?

    /// A track written, from what its sink counted; `retimed`: an audio track's retimed samples;
    /// `videoDuration`: the video's length as the file states it.
    init(index: Int, tally: TrackTally, retimed: (sampleRate: Int, samples: Int64)?, videoDuration: Rational) {
        let track = tally.track
        self.index = index
        source = track.source.index
        kind = track.kind.rawValue
        codec = track.codec
        action = track.action
        reason = track.reason
        algorithm = track.algorithm
        language = track.source.metadata["language"]
        let isEncoded = [.reencode, .splice, .stretch].contains(track.action)
        packets = retimed == nil ? tally.packets : nil
        bytes = isEncoded ? nil : tally.bytes
        duration =
            track.kind == .video
            ? videoDuration : retimed.flatMap(ExportTrack.seconds) ?? tally.span
        sampleRate = retimed?.sampleRate
        samples = retimed?.samples
    }

    /// Seconds `samples` at `sampleRate` last; nil for a rate of 0 (a track whose parameters are unknown).
    static func seconds(_ retimed: (sampleRate: Int, samples: Int64)) -> Rational? {
        retimed.sampleRate > 0 ? Rational(retimed.samples, Int64(retimed.sampleRate)) : nil
    }

    /// An input track left out, or the timecode track made from it (`index` set).
    init(left source: StreamInfo?, index: Int? = nil, codec: String, action: Action, reason: String?) {
        self.index = index
        self.source = source?.index
        kind = source?.kind.rawValue ?? StreamInfo.Kind.data.rawValue
        self.codec = codec
        self.action = action
        self.reason = reason
        algorithm = nil
        language = source?.metadata["language"]
        packets = nil
        bytes = nil
        duration = nil
        sampleRate = nil
        samples = nil
    }
}
