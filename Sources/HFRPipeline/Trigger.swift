import HFRMedia

/// What can set a clip off (`hfr record --trigger`).
public enum TriggerKind: String, Sendable, CaseIterable {
    /// SIGUSR1 (`kill -USR1 PID`, a script or a GPIO watcher).
    case signal
    /// Enter or space in the terminal (a line on standard input when it is not a terminal).
    case key
    /// The live preview's button, or `POST /trigger`.
    case http
    /// A change of the picture's downscaled luma above a threshold (`MotionDetector`).
    case motion
    /// The recording's audio above a level in dBFS (`AudioLevelTrigger`).
    case audio
}

/// One trigger: what fired and when, in seconds from the recording's first frame.
public struct TriggerEvent: Sendable, Equatable {
    public var time: Rational
    public var kind: TriggerKind

    public init(time: Rational, kind: TriggerKind) {
        self.time = time
        self.kind = kind
    }
}

/// What `hfr record --pre-trigger`, `--post-trigger` and `--trigger` asked for.
public struct TriggerSettings: Sendable {
    /// Kept before each trigger (from the key frame at or before it).
    public var preTrigger: Rational
    /// Kept after each trigger; a trigger inside a clip's window extends the clip.
    public var postTrigger: Rational
    public var kinds: Set<TriggerKind>
    /// `--motion-threshold`: mean change of the region's downscaled luma, in percent of full scale.
    public var motionThreshold: Double = 5
    /// `--motion-region X,Y,W,H` in pixels; nil = the whole picture.
    public var motionRegion: PixelRegion?
    /// `--audio-threshold`: the level (dBFS, ≤ 0) whose crossing is an audio trigger.
    public var audioThreshold: Double = -20
    /// `--clips N`: stop recording once N clips are written.
    public var clipLimit: Int?
    /// The clips' names: `OUTPUT` with its `%d`/`%03d` (or `-%03d` added before the extension).
    public var names: ClipNames

    public init(preTrigger: Rational, postTrigger: Rational, kinds: Set<TriggerKind>, names: ClipNames) {
        self.preTrigger = preTrigger
        self.postTrigger = postTrigger
        self.kinds = kinds
        self.names = names
    }

    /// How long after a motion or audio trigger the same detector stays quiet: its event goes on
    /// (a flash lights, then fades), and one clip is what it made.
    public var rearmAfter: Rational { max(postTrigger, Rational(1, 2)) }
}

/// A rectangle of the picture, in pixels.
public struct PixelRegion: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
