import HFRMedia

/// The smallest and largest step between consecutive presentation times of the frames one layer
/// cut keeps: a cut is evenly spaced when they differ by at most one tick (containers with coarse
/// time bases round 1/60 s to 16 or 17 ms). Frames come in decode order; B-frames are put back in
/// presentation order through a window of the latest `depth` times (H.264 and HEVC reorder by at
/// most 16 frames). Constant memory. `Prober` measures a video's frame rate from it
/// (`measuredRate`), and export plans with it: one measurement for both.
public struct GapRange: Sendable {
    /// Times not yet placed, ascending.
    private var window: [Int64] = []
    private var last: Int64?
    private var smallest: Int64 = .max
    private var largest: Int64 = .min
    private var isInOrder = true
    /// A time came before one already seen: the frames arrive out of presentation order (B-frames).
    public private(set) var isReordered = false
    private var latest: Int64?
    /// Gaps placed, and those within a tick of the smallest (one frame period) with their sum.
    private var gapCount = 0
    private var regularCount = 0
    private var regularSum: Int64 = 0
    /// How often each gap length occurs, while there are at most `distinctGaps` lengths.
    private var lengths: [Int64: Int] = [:]
    private var hasManyLengths = false
    /// The first gap, the last one, and the range of all but the first.
    private var firstGap: Int64?
    private var lastGap: Int64?
    private var laterSmallest: Int64 = .max
    private var laterLargest: Int64 = .min
    /// Whether a first gap of whole periods between frames in order is a start offset: set where
    /// the container's index lists more entries than it has frames (an AVI's empty chunks).
    public var takesWholeFirstGapAsOffset = false
    public static let depth = 32
    static let distinctGaps = 64

    /// No times yet.
    public init() {}

    /// Takes the next frame's presentation time (decode order; nil: it has none).
    public mutating func keep(_ pts: Int64?) {
        guard let pts else {
            isInOrder = false
            return
        }
        if let latest, pts < latest { isReordered = true }
        latest = max(latest ?? pts, pts)
        window.insert(pts, at: window.firstIndex { $0 > pts } ?? window.endIndex)
        if window.count > GapRange.depth { place(window.removeFirst()) }
    }

    private mutating func place(_ pts: Int64) {
        defer { last = pts }
        guard isInOrder || last == nil else { return }
        if let last {
            // Damaged times (a fragment's decode time of 2⁶³) are no spacing: nothing is computed
            // from them that could overflow, and their jump is refused by `TimestampJump`.
            let step = pts.subtractingReportingOverflow(last)
            let gap = step.partialValue
            guard !step.overflow, gap > 0, gap < GapRange.longestGap else {
                isInOrder = false
                return
            }
            if smallest != .max, gap < smallest - 1 { (regularCount, regularSum) = (0, 0) }
            smallest = min(smallest, gap)
            largest = max(largest, gap)
            gapCount += 1
            if !hasManyLengths {
                lengths[gap, default: 0] += 1
                if lengths.count > GapRange.distinctGaps { (hasManyLengths, lengths) = (true, [:]) }
            }
            if gap <= smallest + 1 { (regularCount, regularSum) = (regularCount + 1, regularSum + gap) }
            if firstGap == nil {
                firstGap = gap
            } else {
                (laterSmallest, laterLargest) = (min(laterSmallest, gap), max(laterLargest, gap))
            }
            lastGap = gap
        }
    }

    /// Longer gaps (2⁴⁰ ticks: 12 days in nanoseconds) are taken for damaged times.
    static let longestGap: Int64 = 1 << 40

    /// With the window placed: every time seen.
    private var settled: GapRange {
        var all = self
        for pts in window { all.place(pts) }
        all.window = []
        return all
    }

    /// Evenly spaced to within a tick, after a `leadingOffset`.
    public var isEven: Bool {
        let all = settled
        return all.isInOrder
            && (all.smallest == .max || all.largest - all.smallest <= 1 || all.leadingOffsetTicks != nil)
    }

    /// Ticks the first frame is shown early: it stands longer than one period before frames evenly
    /// spaced after it. A muxer's start offset (the audio's priming) that the container could not
    /// store: FFmpeg's fragmented MP4 without `default_base_moof` has its first decode time taken
    /// as 0, its AVI writes empty index entries after the first frame. The first frame belongs one
    /// period before the second. Only where that is plain: with B-frames (a first gap no drop
    /// makes), or a whole number of periods where the index lists entries that are no frames
    /// (`takesWholeFirstGapAsOffset`); frames in order are otherwise taken as the file has them (a
    /// camera's first frames dropped; ffmpeg's `frag_every_frame`). Nil when there is none.
    public var leadingOffsetTicks: Int64? { settled.leadingOffsetTicksSettled }

    private var leadingOffsetTicksSettled: Int64? {
        guard isInOrder, let firstGap, laterSmallest != .max, laterLargest - laterSmallest <= 1,
            gapCount >= 3, firstGap > laterLargest + 1
        else { return nil }
        let period = laterSmallest
        let periods = Double(firstGap) / Double(period)
        let isWhole = abs(periods - periods.rounded()) * Double(period) <= 1
        guard isReordered || (isWhole && takesWholeFirstGapAsOffset) else { return nil }
        return firstGap - period
    }
    /// A variable frame rate, as far as the times can tell. Times that arrive in order: any uneven
    /// gaps. Reordered ones (B-frames) only when the gaps are at most twice the shortest (an
    /// FFmpeg fragmented MP4 gives its first frame 1.6 periods) or every one is a few whole frame
    /// periods (at most `reorderedGapPeriods`): frames left out of a constant rate (a phone going
    /// from 60 to 30 fps, a trim by stream copy that ends in decode order and leaves out the
    /// B-frames shown before the last reference frame, frames a timestamps file skips). A
    /// reordered frame far from its neighbours (a damaged composition offset) is left to the
    /// checks of evenly spaced frames, which refuse it.
    public var isVariable: Bool {
        let all = settled
        guard all.isInOrder, all.smallest != .max, all.largest - all.smallest > 1, all.leadingOffsetTicksSettled == nil
        else { return false }
        return !isReordered || (all.smallest > 0 && all.largest <= 2 * all.smallest)
            || all.regularPeriod(periodsAtMost: GapRange.reorderedGapPeriods) != nil
    }
    static let reorderedGapPeriods = 16

    /// The frame period in ticks when every gap is a whole number of periods and at least a quarter
    /// are one: a constant rate with frames dropped or left out (a camera's drops, every third
    /// frame removed), whose capture rate is the period's, not the average over the gaps. The
    /// period is first the mean of the gaps within a tick of the smallest; each gap may be off its
    /// whole number k of periods by the rounding of its two ends and k times that estimate's error
    /// (a tick each); the period is then all the gaps' length over all their periods.
    public var regularPeriod: Rational? { regularPeriod(periodsAtMost: nil) }

    private func regularPeriod(periodsAtMost limit: Int?) -> Rational? {
        let all = settled
        if all.leadingOffsetTicksSettled != nil { return nil }
        guard all.isInOrder, !all.hasManyLengths, all.regularCount > 0, all.regularCount * 4 >= all.gapCount else {
            return nil
        }
        let estimate = Double(all.regularSum) / Double(all.regularCount)
        var (ticks, periods): (Int64, Int64) = (0, 0)
        for (gap, count) in all.lengths {
            let k = (Double(gap) / estimate).rounded()
            guard k >= 1, k < Double(GapRange.longestGap), abs(Double(gap) - k * estimate) <= 1 + k,
                limit.map({ k <= Double($0) }) ?? true
            else { return nil }
            ticks += gap * Int64(count)
            periods += Int64(k) * Int64(count)
        }
        return periods > 0 ? Rational(ticks, periods) : nil
    }
}
