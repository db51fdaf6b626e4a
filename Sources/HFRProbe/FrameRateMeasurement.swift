import HFRMedia

/// The one measurement of a video's frame rate from its presentation times: what `hfr probe`
/// reports as the capture rate of an untagged file and what export plans with.
///
/// - Only the frames an edit list shows count: the ones it hides before its start (a trim by
///   stream copy keeps them from the keyframe on) are references, not part of the timing.
/// - Frames left out of a constant rate (every gap a whole number of periods: a camera's drops,
///   a trim's missing B-frames) keep the rate of their period, not their average over the gaps.
/// - A first frame shown early by a muxer's start offset (`GapRange.leadingOffsetTicks`) counts
///   one period.
/// - Coarse timestamps (Matroska's milliseconds) round the period: the exact rate they round is
///   taken: of frames left out, the whole, NTSC or three-decimal rate within two ticks over the
///   span; else the rate the container declares when within 1 %.
struct FrameRateMeasurement {
    let shownFrom: Int64?
    var spacing = GapRange()
    private(set) var count = 0
    private(set) var first: Int64?
    private(set) var last: Int64?

    init(shownFrom: Int64?) {
        self.shownFrom = shownFrom
    }

    mutating func add(_ pts: Int64?) {
        guard let pts else {
            // A frame without a time (a packed MPEG-4 B-frame's anchor) is a frame of the span.
            count += 1
            spacing.keep(nil)
            return
        }
        if let shownFrom, pts < shownFrom { return }
        count += 1
        first = min(first ?? pts, pts)
        last = max(last ?? pts, pts)
        spacing.keep(pts)
    }

    /// Frames per second of stream time; `declared`: the container's rate. Nil without two times
    /// apart, or when their span does not fit in 64 bits (damaged times).
    func rate(timeBase: Rational, declared: Rational?) -> Rational? {
        guard count > 1, let first, let last, last > first else { return nil }
        let span = last.subtractingReportingOverflow(first)
        guard !span.overflow else { return nil }
        var ticks = span.partialValue
        if let offset = spacing.leadingOffsetTicks, ticks > offset { ticks -= offset }
        var rate = Rational(Int64(count - 1)) / Rational.seconds(ticks, in: timeBase)
        var isExact = false
        if !spacing.isEven, let period = spacing.regularPeriod {
            let measured = Rational(1) / (period * timeBase)
            // Each end of the span is rounded to a tick: the period is known to 2 ticks over it.
            rate = Self.exactRate(near: measured, relativeTolerance: 2 / Double(ticks)) ?? measured
            isExact = rate != measured
        }
        if !isExact, let declared, declared > Rational(0), abs(((declared - rate) / declared).doubleValue) < 0.01 {
            return declared
        }
        return rate
    }

    /// The whole, NTSC (n·1000/1001) or three-decimal rate within `relativeTolerance` of `rate`.
    static func exactRate(near rate: Rational, relativeTolerance: Double) -> Rational? {
        let x = rate.doubleValue
        guard x > 0, x.isFinite, x < 1e6 else { return nil }
        let candidates = [
            Rational(Int64(x.rounded())),
            Rational(Int64((x * 1.001).rounded()) * 1000, 1001),
            Rational(Int64((x * 1000).rounded()), 1000),
        ]
        // The simplest first: a whole rate, then NTSC, then three decimals.
        return candidates.first { $0.numerator > 0 && abs($0.doubleValue - x) <= x * relativeTolerance }
    }
}
