import HFRMedia

/// Running per-layer counts of a video stream, and the spacing of the frames each layer cut keeps.
struct LayerTally {
    private(set) var frameCount = 0
    private(set) var droppableCount = 0
    private(set) var containerMarkedCount = 0
    private(set) var markedButReferencedCount = 0
    private(set) var droppableButUnmarkedCount = 0
    private(set) var sawTemporalID = false
    private(set) var sawSlices = false
    /// Frames and droppable frames per level (temporal id, or 0/1 for reference/non-reference).
    private var byTemporalID = [Count?](repeating: nil, count: LayerTally.maxTemporalID + 1)
    private var byRefLevel = [Count?](repeating: nil, count: 2)
    /// The spacing of each level's frames; a cut "keep levels 0…k" merges levels 0…k (`cuts`), so a
    /// frame is kept once, not once per cut above its level.
    private var spacingByTemporalID = [Spacing?](repeating: nil, count: LayerTally.maxTemporalID + 1)
    private var spacingByRefLevel = [Spacing?](repeating: nil, count: 2)
    /// What temporal ids mean in this stream: SVC prefix NAL units (H.264) or HEVC NAL headers.
    private let temporalIDSignalling: ProbeReport.LayerSignalling

    init(temporalIDSignalling: ProbeReport.LayerSignalling = .svcTemporalID) {
        self.temporalIDSignalling = temporalIDSignalling
    }

    struct Count {
        var frames = 0
        var droppable = 0
    }

    /// Whether kept timestamps form an arithmetic progression, in any order and in O(1) memory:
    /// with distinct timestamps, span ÷ gcd(offsets) + 1 == count means every grid step is filled.
    struct Spacing {
        var kept = 0
        var firstPts: Int64?
        var minPts: Int64 = .max
        var maxPts: Int64 = .min
        var gcd: Int64 = 0
        var hasUnknownPts = false

        mutating func keep(_ pts: Int64?) {
            kept += 1
            guard let pts else {
                hasUnknownPts = true
                return
            }
            let first = firstPts ?? pts
            firstPts = first
            // Damaged times (a fragment's decode time near 2⁶³) can be further apart than Int64
            // holds: no grid then.
            let (difference, overflow) = pts.subtractingReportingOverflow(first)
            guard !overflow, difference != .min else {
                hasUnknownPts = true
                return
            }
            // Most frames lie on the grid found so far: one division, not Euclid's loop.
            let offset = difference.magnitude
            if gcd == 0 || offset % UInt64(gcd) != 0 { gcd = Spacing.gcd(gcd, offset) }
            minPts = Swift.min(minPts, pts)
            maxPts = Swift.max(maxPts, pts)
        }

        var isUniform: Bool {
            guard !hasUnknownPts, kept > 1, gcd > 0 else { return kept == 1 }
            let (span, overflow) = maxPts.subtractingReportingOverflow(minPts)
            return !overflow && span / gcd + 1 == Int64(kept)
        }

        /// The spacing of `a`'s and `b`'s frames together: offsets from `a`'s first time are offsets
        /// from `b`'s first plus the step between the two, so the gcd of both sets' gcds and that step.
        static func merge(_ a: Spacing?, _ b: Spacing?) -> Spacing? {
            guard var a else { return b }
            guard let b else { return a }
            a.kept += b.kept
            a.hasUnknownPts = a.hasUnknownPts || b.hasUnknownPts
            guard let bFirst = b.firstPts else { return a }
            guard let aFirst = a.firstPts else {
                (a.firstPts, a.gcd, a.minPts, a.maxPts) = (bFirst, b.gcd, b.minPts, b.maxPts)
                return a
            }
            let (step, overflow) = bFirst.subtractingReportingOverflow(aFirst)
            guard !overflow, step != .min else {
                a.hasUnknownPts = true
                return a
            }
            a.gcd = gcd(gcd(a.gcd, step.magnitude), UInt64(b.gcd))
            a.minPts = Swift.min(a.minPts, b.minPts)
            a.maxPts = Swift.max(a.maxPts, b.maxPts)
            return a
        }

        private static func gcd(_ a: Int64, _ b: UInt64) -> Int64 {
            var (x, y) = (UInt64(a), b)
            while y != 0 { (x, y) = (y, x % y) }
            return Int64(x)
        }
    }

    static let maxTemporalID = 7

    mutating func add(_ frame: ProbedFrame) {
        frameCount += 1
        let droppable = frame.structure?.isDroppable ?? false
        if droppable { droppableCount += 1 }
        if frame.isContainerDisposable {
            containerMarkedCount += 1
            if !droppable, frame.structure != nil { markedButReferencedCount += 1 }
        } else if droppable {
            droppableButUnmarkedCount += 1
        }
        if let s = frame.structure, s.sliceCount > 0 { sawSlices = true }
        let tid = min(frame.structure?.temporalID ?? 0, LayerTally.maxTemporalID)
        if frame.structure?.temporalID != nil { sawTemporalID = true }
        LayerTally.count(&byTemporalID[tid], droppable: droppable)
        LayerTally.keep(frame.pts, in: &spacingByTemporalID[tid])
        let level = droppable ? 1 : 0
        LayerTally.count(&byRefLevel[level], droppable: droppable)
        LayerTally.keep(frame.pts, in: &spacingByRefLevel[level])
    }

    private static func count(_ count: inout Count?, droppable: Bool) {
        if count == nil { count = Count() }
        count!.frames += 1
        if droppable { count!.droppable += 1 }
    }

    private static func keep(_ pts: Int64?, in spacing: inout Spacing?) {
        if spacing == nil { spacing = Spacing() }
        spacing!.keep(pts)
    }

    /// For each k, the spacing of the frames of levels 0…k together.
    private static func cuts(_ levels: [Spacing?]) -> [Spacing?] {
        var merged: Spacing? = nil
        return levels.map { level in
            merged = Spacing.merge(merged, level)
            return merged
        }
    }

    /// The highest temporal id seen (0 when none).
    private var topTemporalID: Int { byTemporalID.lastIndex { $0 != nil } ?? 0 }

    var signalling: ProbeReport.LayerSignalling {
        sawTemporalID ? temporalIDSignalling : (sawSlices ? .nalRefIdc : .none)
    }

    /// Layers by temporal id (one layer when the stream signals none).
    func layers() -> [ProbeReport.Layer] {
        let top = sawTemporalID ? topTemporalID : 0
        return (0...top).map { id in
            let t = sawTemporalID ? (byTemporalID[id] ?? Count()) : Count(frames: frameCount, droppable: droppableCount)
            return ProbeReport.Layer(
                id: id, frameCount: t.frames, droppableCount: t.droppable,
                share: frameCount == 0 ? 0 : Double(t.frames) / Double(frameCount))
        }
    }

    /// Each cut that keeps fewer frames, from all frames down to the base layer (or reference frames).
    func reachableRates(captureRate: Rational?) -> [ProbeReport.ReachableRate] {
        guard frameCount > 0 else { return [] }
        // A cut keeping 1 frame in 2^k, evenly, of an evenly spaced stream: capture ÷ 2^k, exact also
        // when the stream does not end on a whole period (241 frames); else capture × kept ÷ total.
        let byTemporalCut = LayerTally.cuts(spacingByTemporalID)
        let byRefCut = LayerTally.cuts(spacingByRefLevel)
        let all = signalling == .nalRefIdc ? byRefCut[1] : byTemporalCut[LayerTally.maxTemporalID]
        func rate(_ s: Spacing) -> Rational? {
            guard let c = captureRate else { return nil }
            if let all, all.isUniform, all.gcd > 0, s.isUniform, s.gcd % all.gcd == 0 {
                let step = s.gcd / all.gcd
                if step > 0, step & (step - 1) == 0, abs(Int64(s.kept) * step - Int64(frameCount)) < step {
                    return c / Rational(step)
                }
            }
            return c * Rational(Int64(s.kept), Int64(frameCount))
        }
        switch signalling {
        case .svcTemporalID, .hevcTemporalID:
            let top = topTemporalID
            return (0...top).reversed().compactMap { cut in
                guard let s = byTemporalCut[cut] else { return nil }
                return .init(
                    description: cut == 0 ? "layer 0" : "layers 0-\(cut)", keptFrames: s.kept,
                    rate: rate(s), isUniform: s.isUniform)
            }
        case .nalRefIdc:
            return [1, 0].compactMap { cut in
                guard let s = byRefCut[cut], cut == 1 || s.kept < frameCount else { return nil }
                return .init(
                    description: cut == 1 ? "all frames" : "reference frames", keptFrames: s.kept,
                    rate: rate(s), isUniform: s.isUniform)
            }
        case .none:
            return []
        }
    }
}
