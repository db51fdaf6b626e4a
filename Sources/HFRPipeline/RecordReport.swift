import HFRCapture
import HFRMedia

/// What a recording did, for the summary line and `--json`.
public struct RecordReport: Sendable {
    public let output: String
    public let stopReason: StopReason
    public let width: Int
    public let height: Int
    public let frameRate: Rational
    public let temporalLayers: Int
    /// The pixel format the source delivered (converted to I420 for the encoder when different).
    public let sourcePixelFormat: String?
    public let framesCaptured: Int
    public let framesEncoded: Int
    /// Frames dropped because the encoder fell behind (`--late-frames drop`): the queue, or the
    /// RAM buffer's budget, was full.
    public let framesDroppedLate: Int
    /// Frames the source skipped, from gaps in its timestamps.
    public let framesMissingFromSource: Int
    /// A camera's own account of lost frames (sequence gaps, error buffers); nil for other sources.
    public let sourceLosses: SourceLosses?
    public let framesPerLayer: [Int]
    public let audioSamples: Int
    public let audioSampleRate: Int?
    /// Media time of the video: frames × frame duration.
    public let videoDuration: Rational
    public let wallSeconds: Double
    public let bytes: Int64
    public let maxQueueDepth: Int
    public let queueCapacity: Int
    /// Set when the final file could not be written (disk full) and the fragmented recording was
    /// kept under the output name instead.
    public let keptFragmented: Bool
    /// A triggered recording's clips, in order (`output` is then their names' template).
    public var clips: [ClipReport]? = nil
    /// The most the pre-trigger ring held, in bytes.
    public var ringPeakBytes: Int? = nil
    /// What `--buffer ram` held; nil without it.
    public var ramBuffer: RAMBufferUse? = nil
    /// Audio that stopped before the video did; nil when it lasted as long (or there is none).
    public var audioShortfall: AudioShortfall? = nil
    /// Seconds of silence written where the source gave no audio (gaps, a stall, after its end, and
    /// the few milliseconds between the last audio frame and the video's end); 0 without audio.
    public var audioSilence = Rational(0)
    /// A source slower than the rate asked; nil when it kept up.
    public var slowSource: SlowSource? = nil

    /// Frames per second actually achieved (encoded ÷ wall time).
    public var achievedFPS: Double { wallSeconds > 0 ? Double(framesEncoded) / wallSeconds : 0 }
}

/// Why a recording could not be made or completed.
public enum RecordFailure: Error, Sendable {
    /// The capture session could not start (STREAMON refused, a filter graph that makes no
    /// picture, another size than asked).
    case capture(CaptureError)
    /// An encoder (or setting up the file it feeds) failed.
    case encoder(EncoderFailure)
    /// Writing failed (disk full …); `kept` frames are in the output as a fragmented MP4.
    case write(AVFailure, report: RecordReport?)
    /// The audio device could not be opened.
    case audioDevice(String, AVFailure)
    /// The source failed mid-way (unplugged …); what was captured was finalized.
    case sourceLost(any Error, report: RecordReport)
    /// The recording ended before its first frame (for `reason`; `cause`: the source's failure,
    /// if it failed); no file was left.
    case nothingRecorded(StopReason, cause: (any Error)?)

    /// The report of what was kept, when something was.
    public var report: RecordReport? {
        switch self {
        case .write(_, let report): report
        case .sourceLost(_, let report): report
        default: nil
        }
    }
}
