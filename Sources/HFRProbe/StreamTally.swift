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
    /// The largest step between consecutive presentation times (a damaged time field's jump).
    var jumps = TimestampJump.Watch()
    /// The video's frames as the rate is measured from them (`FrameRateMeasurement`); nil for
    /// other streams.
    var rate: FrameRateMeasurement?

    /// A tally of the main video stream, whose rate is measured from the frames presented at or
    /// after `shownFrom` (an edit list's start: the frames it hides are no part of the timing).
    static func video(shownFrom: Int64?) -> StreamTally {
        var tally = StreamTally()
        tally.rate = FrameRateMeasurement(shownFrom: shownFrom)
        return tally
    }

    mutating func add(pts: Int64?, duration: Int64, size: Int, skippedTicks: Int64 = 0) {
        packetCount += 1
        byteCount += Int64(size)
        jumps.add(pts)
        rate?.add(pts)
        guard let pts else { return }
        if firstPts == nil { firstPts = pts }
        minPts = Swift.min(minPts ?? pts, pts)
        // Saturating: a damaged time near 2⁶³ must not trap (its jump is refused by the caller).
        let start = pts.addingReportingOverflow(skippedTicks)
        let begins = start.overflow ? pts : start.partialValue
        minStart = Swift.min(minStart ?? begins, begins)
        if pts >= (maxPts ?? pts) {
            maxPts = pts
            let end = pts.addingReportingOverflow(Swift.max(duration, 0))
            maxPtsEnd = end.overflow ? Int64.max : end.partialValue
        }
    }

    /// A first video frame shown early (`GapRange.leadingOffsetTicks`): its time, where it belongs.
    var leadingFrame: (pts: Int64, start: Int64)? {
        guard let rate, let offset = rate.spacing.leadingOffsetTicks, let first = rate.first else { return nil }
        return (first, first + offset)
    }

    /// The video's rate (`FrameRateMeasurement`), else (frames − 1) / (last − first presentation
    /// time). Nil when the span does not fit in 64 bits (damaged times).
    func measuredFrameRate(timeBase: Rational, declared: Rational? = nil) -> Rational? {
        if let rate { return rate.rate(timeBase: timeBase, declared: declared) }
        guard packetCount > 1, let lo = minPts, let hi = maxPts, hi > lo else { return nil }
        let span = hi.subtractingReportingOverflow(lo)
        guard !span.overflow else { return nil }
        return Rational(Int64(packetCount - 1)) / Rational.seconds(span.partialValue, in: timeBase)
    }

    /// From the earliest start to the end of the last frame. A last packet of unknown duration
    /// (Matroska without BlockDurations) lasts the frames' mean period: else the last frame would
    /// lie at the end, outside the stream, and be cut.
    func measuredDuration(timeBase: Rational) -> Rational? {
        guard let lo = minStart, let end = maxPtsEnd, end >= lo else { return nil }
        let length = end.subtractingReportingOverflow(lo)
        guard !length.overflow else { return nil }
        let seconds = Rational.seconds(length.partialValue, in: timeBase)
        guard end == maxPts, packetCount > 1, let first = minPts, let last = maxPts, last > first else {
            return seconds
        }
        let span = last.subtractingReportingOverflow(first)
        guard !span.overflow else { return nil }
        return seconds + Rational.seconds(span.partialValue, in: timeBase) / Rational(Int64(packetCount - 1))
    }
}
