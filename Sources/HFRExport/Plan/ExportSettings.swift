import HFRInterpolation
import HFRMedia

/// What `hfr export` was asked to do, validated but not yet matched against the input.
public struct ExportSettings: Sendable {
    /// How source time becomes output time.
    public enum Mode: Sendable, Equatable {
        /// Every frame kept and shown at `fps`: slow motion by capture ÷ fps.
        case conform(fps: Rational)
        /// Real time at `fps`: upper temporal layers dropped.
        case realTime(fps: Rational)
        /// One playback speed; output rate `fps` or, when nil, capture rate × speed.
        case speed(Rational, fps: Rational?)
        /// Speeds varying over source time; output rate `fps` or capture rate × slowest speed.
        case ramp(TimeMap, fps: Rational?)
    }

    /// How audio follows the time map (AVFoundation's `audioTimePitchAlgorithm`).
    public enum AudioAlgorithm: String, Sendable, CaseIterable {
        /// Rubber Band, offline: phase-vocoder stretch with the pitch kept.
        case spectral
        /// WSOLA (libavfilter `atempo`): pitch kept, cheaper, more artefacts on music.
        case timeDomain = "time-domain"
        /// Resampling: pitch follows speed, like a tape.
        case varispeed
        /// No audio track.
        case mute
    }

    /// What to do with parts the lossless rules cannot reach.
    public enum ReencodePolicy: String, Sendable, CaseIterable {
        case auto, never, always
    }

    /// What fills the output frames between the two frames of a scene cut (`CutDetector`) where
    /// pictures are made between captured frames (`flow`, `blend`): never a morph of the two scenes.
    public enum CutFill: String, Sendable, CaseIterable {
        /// The frame before the cut is shown until the one after it, as RIFE does: each output
        /// frame shows a captured one, and the cut falls where the time map puts the later frame.
        case `repeat`
        /// The two frames cross-faded by their distance in time (as `blend`).
        case crossfade
    }

    /// `--deflicker`: which mains light's flicker to take out of the pictures.
    public enum Deflicker: Sendable, Equatable {
        /// 100 or 120 Hz flicker, whichever the pictures show; none found, none taken out.
        case auto
        /// The flicker of lamps on mains of this frequency (50 or 60 Hz): twice it.
        case mains(Int)

        /// The flicker frequencies looked for, in Hz.
        public var frequencies: [Double] {
            switch self {
            case .auto: [100, 120]
            case .mains(let hz): [Double(2 * hz)]
            }
        }
    }

    public var input: String
    public var output: String
    public var mode: Mode
    /// Source seconds to keep: start, and end (nil = to the end).
    public var range: (start: Rational, end: Rational?)?
    public var audio: AudioAlgorithm
    public var reencode: ReencodePolicy
    /// Times for a raw H.264/HEVC input's frames (`--timestamps`, `--input-fps`); nil for containers.
    public var timing: InputTiming?
    /// `--rotate`: the output's display matrix, degrees clockwise (0 = none); nil keeps the input's.
    public var rotation: Int?
    /// `--interpolate`: how frames are made where each output frame advances the source by less than
    /// one captured frame (C·S/O < 1).
    public var interpolation: InterpolationMethod = .flow
    /// `--codec`, `--quality`: what a re-encode writes (nil members: the source's family, each
    /// encoder's visually lossless default).
    public var delivery = DeliveryEncoding.Request()
    /// `--shutter`: the output's shutter angle in degrees (0 < angle ≤ 360): each output frame
    /// averages the captured frames exposed while it is open; nil shows one captured frame each.
    public var shutter: Rational?
    /// `--fill-drops`: synthesize the frames the capture dropped (gaps of whole frame periods in
    /// the timestamps), which re-encodes; nil leaves the gaps as they are.
    public var fillDrops: DropFill?
    /// `--cut-fill`: what is shown between the two frames of a scene cut instead of made pictures.
    public var cutFill: CutFill = .repeat
    /// `--deflicker`: the mains flicker found in the pictures is taken out (which re-encodes).
    public var deflicker: Deflicker?
    /// `--split-part`: this export is one unit of a split batch job (`hfr batch`, `"split"`), which
    /// writes only some of the output's tracks; nil writes them all.
    public var splitPart: SplitPart?

    /// The units a split batch job is cut into: each writes the tracks of the whole output that it
    /// owns, and `hfr batch` joins them (`SplitJoin`) into what one export would have written.
    public enum SplitPart: String, Sendable, CaseIterable {
        /// The video of one stretch of the input (`--range` at a keyframe): every other track left out.
        case video
        /// Every track but the video, of the whole job: audio stretched in one piece, so it equals
        /// one export's to the sample; the video is planned and counted as a dry run does, not written.
        case rest
    }

    public init(
        input: String, output: String, mode: Mode, range: (start: Rational, end: Rational?)?,
        audio: AudioAlgorithm, reencode: ReencodePolicy
    ) {
        self.input = input
        self.output = output
        self.mode = mode
        self.range = range
        self.audio = audio
        self.reencode = reencode
    }
}
