import HFRMedia

/// Running counts for one stream while its packets go by; constant memory whatever the file size.
struct StreamTally {
    var packetCount = 0
    var byteCount: Int64 = 0
    var firstPts: Int64?
    var minPts: Int64?
    var maxPts: Int64?
    var maxPtsEnd: Int64?

    /// Earliest time something is presented: pts plus what the decoder skips (priming).
    var minStart: Int64?

    mutating func add(pts: Int64?, duration: Int64, size: Int, skippedTicks: Int64 = 0) {
        packetCount += 1
        byteCount += Int64(size)
        guard let pts else { return }
        if firstPts == nil { firstPts = pts }
        minPts = Swift.min(minPts ?? pts, pts)
        let start = Self.sum(pts, skippedTicks)
        minStart = Swift.min(minStart ?? start, start)
        if pts >= (maxPts ?? pts) {
            maxPts = pts
            maxPtsEnd = Self.sum(pts, Swift.max(duration, 0))
        }
    }

    /// `a + b`, held at Int64's bounds: the times are the file's, damaged ones too (a fragment's
    /// decode time near 2⁶³).
    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// `hi − lo` ticks in seconds, in `Rational`'s arithmetic (it cannot overflow as Int64 can).
    private static func span(_ lo: Int64, _ hi: Int64, in timeBase: Rational) -> Rational {
        Rational.seconds(hi, in: timeBase) - Rational.seconds(lo, in: timeBase)
    }

    /// (frames − 1) / (last − first presentation time): exact for constant-rate streams.
    func measuredFrameRate(timeBase: Rational) -> Rational? {
        guard packetCount > 1, let lo = minPts, let hi = maxPts, hi > lo else { return nil }
        return Rational(Int64(packetCount - 1)) / Self.span(lo, hi, in: timeBase)
    }

    /// From the earliest start to the end of the last frame. A last packet of unknown duration
    /// (Matroska without BlockDurations) lasts the frames' mean period: else the last frame would
    /// lie at the end, outside the stream, and be cut.
    func measuredDuration(timeBase: Rational) -> Rational? {
        guard let lo = minStart, let end = maxPtsEnd, end >= lo else { return nil }
        let seconds = Self.span(lo, end, in: timeBase)
        guard end == maxPts, packetCount > 1, let first = minPts, let last = maxPts, last > first else {
            return seconds
        }
        return seconds + Self.span(first, last, in: timeBase) / Rational(Int64(packetCount - 1))
    }
}
