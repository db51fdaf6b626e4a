/// Frame times given from outside for a raw elementary stream (`.h264`, `.h265`), which carries
/// none of its own: a list of times, or a constant rate.
public enum InputTiming: Sendable, Equatable {
    /// One presentation time per frame, in presentation order (a `rpicam-vid --save-pts` or
    /// mkvmerge "timestamp format v2" file, see `TimestampFile`).
    case timestamps(TimestampList)
    /// Frame `i` at `i / rate` seconds.
    case constantRate(Rational)
}

/// Strictly increasing frame times, exact, as whole ticks of one time base (computed once, shared
/// by every demuxer opened on the stream).
public struct TimestampList: Sendable, Equatable {
    /// The file they came from, for messages.
    public let source: String
    /// The coarsest time base that holds every time exactly (1/1000000 for rpicam-vid's µs).
    public let timeBase: Rational
    public let ticks: [Int64]

    /// From times in whole nanoseconds (what `TimestampFile` reads), in the coarsest exact time base.
    public init(nanoseconds: [Int64], source: String) {
        let unit = nanoseconds.reduce(Int64(1_000_000_000)) { Rational.gcd($0, $1) }
        self.source = source
        timeBase = Rational(unit, 1_000_000_000)
        ticks = nanoseconds.map { $0 / unit }
    }

    /// From exact times in seconds: the time base is their least common denominator when that fits
    /// FFmpeg's 32 bits, else nanoseconds (rounded).
    public init(seconds: [Rational], source: String) {
        let denominator = seconds.reduce(Int64(1)) { lcm, t in
            let (next, overflow) = (lcm / Rational.gcd(lcm, t.denominator)).multipliedReportingOverflow(
                by: t.denominator)
            return !overflow && next <= Int64(Int32.max) ? next : 1_000_000_000
        }
        self.source = source
        timeBase = Rational(1, denominator)
        ticks = seconds.map { ($0 * Rational(denominator)).rounded() }
    }

    /// Each time in seconds.
    public var seconds: [Rational] { ticks.map { Rational.seconds($0, in: timeBase) } }
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
