import Foundation

/// A smooth change of playback speed over a source-time span (a ramp's `ease`): the speed follows
/// a smoothstep curve from `from` to `to`, so it changes gently at both ends.
///
/// Played as short constant-speed steps (none longer than 1/60 s of output), so everything that
/// retimes by constant-speed segments plays it unchanged. At each step boundary the output time is
/// the ideal curve's integral of 1/speed rounded to a microsecond: the steps neither drift from
/// the curve nor from one another, and their exact sum is the eased span's output length.
/// Export (`TimeMap`) and probe (`ExportTimeMap`) expand an ease through this one type, so both
/// agree on where every source time plays.
public struct SpeedEase: Sendable, Equatable {
    /// Source seconds where the ease starts, and how long it lasts.
    public let start: Rational
    public let duration: Rational
    /// The speeds at its start and its end.
    public let from: Rational
    public let to: Rational

    /// One constant-speed piece of the eased span.
    public struct Step: Sendable, Equatable {
        public let start: Rational
        public let end: Rational
        public let speed: Rational
    }

    /// Steps per second of output at the slower end: none longer than a frame of a 60 fps output.
    static let stepsPerOutputSecond = 60.0
    /// The grid output times at step boundaries are rounded to (a microsecond).
    static let outputGrid: Int64 = 1_000_000
    /// Subintervals of Simpson's rule per step (1/speed is a smooth rational function there).
    static let simpsonIntervals = 16

    public init(start: Rational, duration: Rational, from: Rational, to: Rational) {
        precondition(duration > Rational(0) && from > Rational(0) && to > Rational(0), "ease must be positive")
        self.start = start
        self.duration = duration
        self.from = from
        self.to = to
    }

    /// The ideal curve's speed at fraction `u` (0…1) of the ease.
    public func speed(atFraction u: Double) -> Double {
        let u = min(max(u, 0), 1)
        let smooth = u * u * (3 - 2 * u)
        return from.doubleValue + (to.doubleValue - from.doubleValue) * smooth
    }

    /// Output seconds the ideal curve takes from the ease's start to fraction `u`: ∫ 1/speed.
    public func idealOutputTime(toFraction u: Double) -> Double {
        integral(from: 0, to: u, intervals: max(2, Int((u * 1000).rounded(.up)) * 2))
    }

    /// Output seconds the whole ease takes on the ideal curve.
    public var idealOutputDuration: Double { idealOutputTime(toFraction: 1) }

    /// The constant-speed steps that play the ease, contiguous from `start` to `start + duration`.
    public var steps: [Step] {
        // Equal in source time; at the slower end each lasts 1/60 s of output, elsewhere less.
        let longest = duration.doubleValue / min(from, to).doubleValue
        let count = min(10_000, max(1, Int((longest * SpeedEase.stepsPerOutputSecond).rounded(.up))))
        let grid = Rational(SpeedEase.outputGrid)
        var steps: [Step] = []
        var elapsed = 0.0
        var output: Int64 = 0
        for i in 0..<count {
            let (u0, u1) = (Double(i) / Double(count), Double(i + 1) / Double(count))
            elapsed += integral(from: u0, to: u1, intervals: SpeedEase.simpsonIntervals)
            // At least a grid step each, so every speed is finite.
            let next = max(output + 1, Int64((elapsed * Double(SpeedEase.outputGrid)).rounded()))
            let s0 = start + duration * Rational(Int64(i), Int64(count))
            let s1 = start + duration * Rational(Int64(i + 1), Int64(count))
            steps.append(Step(start: s0, end: s1, speed: (s1 - s0) * grid / Rational(next - output)))
            output = next
        }
        return steps
    }

    /// Output seconds of source seconds `duration`·[u0, u1] on the ideal curve (Simpson's rule).
    private func integral(from u0: Double, to u1: Double, intervals: Int) -> Double {
        let n = intervals + intervals % 2
        let h = (u1 - u0) / Double(n)
        var sum = 1 / speed(atFraction: u0) + 1 / speed(atFraction: u1)
        for k in 1..<n { sum += (k % 2 == 1 ? 4 : 2) / speed(atFraction: u0 + Double(k) * h) }
        return sum * h / 3 * duration.doubleValue
    }
}
