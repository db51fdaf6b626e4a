import HFRMedia

/// One stream of the input as the export's plan lists it (`TrackPlan`): what happens to it, and
/// for a stream written, what its output track holds.
public struct ExportTrack: Sendable {
    /// How a written track is made (the plan table's detail).
    public enum Method: String, Sendable {
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
        /// The timecode MP4/MOV make a track of (Matroska a tag), moved to the export's start.
        case timecode
        /// A file attached as it is (a font, cover art).
        case attach
        /// Left out; `reason` says why.
        case drop
    }

    /// Input stream index.
    public let input: Int
    /// Output stream index; nil for a stream left out or written as a tag.
    public let output: Int?
    /// "video", "audio", "subtitle", "data" or "attachment" (`TrackPlan.kind`).
    public let kind: String
    /// The codec written (FFmpeg's short name), or the input's for a stream left out.
    public let codec: String
    /// What the plan does with it (`copy`, `retime`, `convert`, `drop`).
    public let action: TrackPlan.Action
    /// How a written track is made (the plan table's "how").
    public let method: Method
    /// Why it is retimed, converted or left out; nil when copied as it is.
    public let reason: String?
    /// A stretched track's algorithm ("spectral", "time-domain", "varispeed").
    public let algorithm: String?
    /// The input track's language tag.
    public let language: String?
    /// Packets written; nil where an encoder the dry run does not run makes them (retimed audio),
    /// or the container itself (a timecode track), or for none written.
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
    init(
        _ planned: TrackPlan, output: Int, tally: TrackTally, retimed: (sampleRate: Int, samples: Int64)?,
        videoDuration: Rational
    ) {
        let track = tally.track
        input = planned.input
        self.output = output
        kind = planned.kind
        codec = track.codec
        action = planned.action
        method = track.method
        reason = planned.reason
        algorithm = track.algorithm
        language = track.source.metadata["language"]
        let isEncoded = [.reencode, .splice, .stretch].contains(track.method)
        packets = retimed == nil ? tally.packets : nil
        bytes = isEncoded ? nil : tally.bytes
        duration =
            track.kind == .video && planned.writer == .video
            ? videoDuration : retimed.flatMap(ExportTrack.seconds) ?? tally.span
        sampleRate = retimed?.sampleRate
        samples = retimed?.samples
    }

    /// Seconds `samples` at `sampleRate` last; nil for a rate of 0 (a track whose parameters are unknown).
    static func seconds(_ retimed: (sampleRate: Int, samples: Int64)) -> Rational? {
        retimed.sampleRate > 0 ? Rational(retimed.samples, Int64(retimed.sampleRate)) : nil
    }

    /// A stream with no packets of its own written: left out, written as a tag or a track the
    /// container makes (a timecode), or attached as a file (`output` its stream).
    init(_ planned: TrackPlan, output: Int? = nil, method: Method) {
        input = planned.input
        self.output = output
        kind = planned.kind
        codec = method == .timecode && output != nil ? "tmcd" : planned.codec
        action = planned.action
        self.method = method
        reason = planned.reason
        algorithm = nil
        language = planned.stream.metadata["language"]
        packets = nil
        bytes = nil
        duration = nil
        sampleRate = nil
        samples = nil
    }
}
