/// Frame times given from outside for a raw elementary stream (`.h264`, `.h265`), which carries
/// none of its own: a timestamps file, or a constant rate.
public enum InputTiming: Sendable, Equatable {
    /// One presentation time per frame, in seconds, strictly increasing, in presentation order (a
    /// `rpicam-vid --save-pts` or mkvmerge "timestamp format v2" file; `source` names it in errors).
    case timestamps([Rational], source: String)
    /// Frame `i` at `i / rate` seconds.
    case constantRate(Rational)
}

/// An input file and, for a raw stream, the timing its frames get (see `InputTiming`).
public struct MediaInput: Sendable {
    public var path: String
    public var timing: InputTiming?

    public init(path: String, timing: InputTiming? = nil) {
        self.path = path
        self.timing = timing
    }
}
