/// The smallest and largest step between consecutive presentation times of the frames one layer
/// cut keeps: a cut is evenly spaced when they differ by at most one tick (containers with coarse
/// time bases round 1/60 s to 16 or 17 ms). Frames come in decode order; B-frames are put back in
/// presentation order through a window of the latest `depth` times (H.264 and HEVC reorder by at
/// most 16 frames). Constant memory.
struct GapRange: Sendable {
    /// Times not yet placed, ascending.
    private var window: [Int64] = []
    private var last: Int64?
    private var smallest: Int64 = .max
    private var largest: Int64 = .min
    private var isInOrder = true
    static let depth = 32

    mutating func keep(_ pts: Int64?) {
        guard let pts else {
            isInOrder = false
            return
        }
        window.insert(pts, at: window.firstIndex { $0 > pts } ?? window.endIndex)
        if window.count > GapRange.depth { place(window.removeFirst()) }
    }

    private mutating func place(_ pts: Int64) {
        if let last {
            let gap = pts - last
            if gap <= 0 { isInOrder = false }
            smallest = min(smallest, gap)
            largest = max(largest, gap)
        }
        last = pts
    }

    /// With the window placed: every time seen.
    private var settled: GapRange {
        var all = self
        for pts in window { all.place(pts) }
        all.window = []
        return all
    }

    /// Presentation times rise through the window (false: a time missing, repeated, or reordered
    /// further than the window reaches).
    var isOrdered: Bool { settled.isInOrder }
    /// Evenly spaced to within a tick.
    var isEven: Bool {
        let all = settled
        return all.isInOrder && (all.smallest == .max || all.largest - all.smallest <= 1)
    }
    /// In order, with gaps of different lengths (a variable frame rate).
    var isUneven: Bool {
        let all = settled
        return all.isInOrder && !(all.smallest == .max || all.largest - all.smallest <= 1)
    }
}
