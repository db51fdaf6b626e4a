/// A source that delivered less than the rate asked (`SourcePace`): said on stderr within a second
/// of its first frame, and `--duration` was kept by the clock.
public struct SlowSource: Sendable {
    /// Frames per second the source delivered in the time it had (the capture's own work left out).
    public var deliveredFPS: Double
    /// Seconds after the first frame when it was noticed.
    public var noticedAfter: Double
    /// The warning printed.
    public var warning: String
}
