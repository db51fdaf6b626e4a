import HFRCapture
import HFRMedia

/// Everything `hfr record` decided before capturing.
public struct RecordSettings: Sendable {
    /// What happens to a frame when the encoder has fallen behind and the queue is full.
    public enum LateFrames: String, Sendable {
        /// Drop it and count it (AVFoundation's alwaysDiscardsLateVideoFrames).
        case drop
        /// Wait: back-pressure reaches the source (a camera's driver then drops, counted by sequence).
        case queue
    }

    public var capture: CaptureRequest
    /// The final file; its extension picks the container (mp4, mov, mkv).
    public var output: String
    public var temporalLayers: Int
    public var bitrate: Int
    /// Frames between IDR frames.
    public var keyframeInterval: Int
    public var encoderThreads: Int
    /// Stop after this much media time.
    public var duration: Rational?
    /// Stop after this many frames.
    public var frameLimit: Int?
    public var lateFrames: LateFrames
    /// An audio capture device to record instead of the source's own audio.
    public var audioDevice: AudioCaptureInput.Device?
    /// The capture device's sample rate (`--audio-rate`).
    public var audioRate = 48000
    /// Frames that may wait between capture and encoder.
    public var queueCapacity: Int
    /// `--buffer ram[:SIZE]`: the bytes of frames that may wait in RAM between capture and encoder,
    /// instead of `queueCapacity` frames; the encoder saves what is left after the capture ends.
    public var ramBudget: Int?
    public var showsStatus: Bool
    /// `--rotate`: degrees clockwise a viewer turns the picture (0, 90, 180, 270), written as the
    /// MP4/MOV display matrix (`DisplayRotation`); the pictures themselves are not turned.
    public var rotation: Int = 0

    public init(
        capture: CaptureRequest, output: String, temporalLayers: Int, bitrate: Int, keyframeInterval: Int,
        encoderThreads: Int, duration: Rational?, frameLimit: Int?, lateFrames: LateFrames, queueCapacity: Int,
        showsStatus: Bool, audioDevice: AudioCaptureInput.Device? = nil
    ) {
        self.capture = capture
        self.output = output
        self.temporalLayers = temporalLayers
        self.bitrate = bitrate
        self.keyframeInterval = keyframeInterval
        self.encoderThreads = encoderThreads
        self.duration = duration
        self.frameLimit = frameLimit
        self.lateFrames = lateFrames
        self.queueCapacity = queueCapacity
        self.showsStatus = showsStatus
        self.audioDevice = audioDevice
    }

    /// The default layer count for a rate: 3 at ≥ 120 fps, 2 at ≥ 60, 1 below (119.88 and 59.94
    /// count as 120 and 60).
    public static func defaultLayers(for rate: Rational) -> Int {
        rate >= Rational(120_000, 1001) ? 3 : rate >= Rational(60000, 1001) ? 2 : 1
    }

    /// A time base in which every frame of `rate` lasts a whole number of ticks, at least 1/90000
    /// fine (so players and muxers keep sub-millisecond precision): 1/90000 for 120 fps, 1/120000
    /// for 60000/1001.
    public static func videoTimeBase(for rate: Rational) -> Rational {
        let multiple = max(1, (90000 + rate.numerator - 1) / rate.numerator)
        return Rational(1, rate.numerator * multiple)
    }

    /// Where frames are written while recording: a fragmented MP4 that survives a crash.
    public var partialPath: String { RecordSettings.partialPath(for: output) }

    /// `clip.mp4` → `clip.partial.mp4` (any extension → `.partial.mp4`).
    public static func partialPath(for output: String) -> String {
        let slash = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
        let stem = output[slash...].lastIndex(of: ".").map { output[..<$0] } ?? output[...]
        return stem + ".partial.mp4"
    }
}
