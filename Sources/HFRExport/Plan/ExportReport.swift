import HFRMedia
import HFRProbe

/// What an export did, for the summary line and `--json`.
public struct ExportReport: Sendable {
    public var input: String
    public var output: String
    public var captureRate: Rational
    public var captureRateSource: String
    public var outputRate: Rational
    public var map: TimeMap
    public var start: Rational
    public var end: Rational
    public var framesIn = 0
    public var framesOut = 0
    /// Frames dropped per level (temporal id, or 1 = non-reference frames), lossless only.
    public var droppedByLevel: [Int: Int] = [:]
    /// Of `framesOut`, new pictures made between captured frames, and the method (nil: none made).
    public var interpolatedFrames = 0
    public var interpolation: String?
    /// `--fill-drops`: the output frames made where the capture dropped frames; nil without it.
    public var filledDrops: FilledDrops?
    /// Scene cuts nothing was made across, and what was shown there (`repeat`, `crossfade`); nil
    /// when no pictures are made (cuts are looked for only where they would be).
    public var cuts: [SceneCut] = []
    public var cutFill: String?
    /// `--deflicker`: the flicker found, how deep before and after; nil without it.
    public var deflicker: DeflickerFinding.Summary?
    public var levelSignalling: String
    public var isReencoded: Bool
    /// Copied, with the segments a copy cannot reach re-encoded into the same stream.
    public var isSpliced = false
    /// The video samples were copied file to file by the kernel (`MappedCopy`), not read and written.
    public var isKernelCopy = false
    public var reencodeReason: String?
    /// The encoder of re-encoded video ("libx264", "openh264") and its quality ("crf:18",
    /// "lossless"; nil where the encoder has its own rule); nil when nothing is re-encoded.
    public var encoder: String?
    public var quality: String?
    /// "spectral", "time-domain", "varispeed", "copy", or "none" (muted or no audio in the input).
    public var audioAlgorithm: String
    /// Audio tracks in the output: every one of the input's, each retimed alike (0 when muted).
    public var audioTracks = 0
    public var audioSampleRate = 0
    public var audioSamples: Int64 = 0
    public var inputDuration: Rational
    /// Video seconds in the output.
    public var outputDuration: Rational
    public var notes: [String]
    public var elapsedSeconds = 0.0
    /// The plan as carried out: the counts the dry run prints for the same export.
    public var plan: ExportPreview?

    /// What `--fill-drops` did.
    public struct FilledDrops: Sendable {
        /// `flow`, `blend` (pictures too small for flow) or `repeat`.
        public var method: String
        /// The output frames made (0 = the first shown), as written in `com.hfr.filled-drops`.
        public var frames: FrameRanges
        /// Frames the capture dropped within the range (gaps of whole frame periods, less one each).
        public var droppedFrames: Int
    }

    /// Seconds of audio in the output; nil without an audio track (or when copied, see `outputDuration`).
    public var audioDuration: Rational? {
        audioSampleRate > 0 ? Rational(audioSamples, Int64(audioSampleRate)) : nil
    }
}
