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
    /// A time came before one already seen: the frames arrive out of presentation order (B-frames).
    private var isReordered = false
    private var latest: Int64?
    static let depth = 32

    mutating func keep(_ pts: Int64?) {
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

    /// Evenly spaced to within a tick.
    var isEven: Bool {
        let all = settled
        return all.isInOrder && (all.smallest == .max || all.largest - all.smallest <= 1)
    }
    /// A variable frame rate, as far as the times can tell. Times that arrive in order: any uneven
    /// gaps. Reordered ones (B-frames) only with gaps at most twice the shortest: a reordered frame
    /// far from its neighbours is more likely a damaged composition offset than a pause, and is
    /// left to the checks of evenly spaced frames, which refuse it.
    var isVariable: Bool {
        let all = settled
        guard all.isInOrder, all.smallest != .max, all.largest - all.smallest > 1 else { return false }
        return !isReordered || (all.smallest > 0 && all.largest <= 2 * all.smallest)
    }

    /// Frames arrived out of presentation order.
    var hasReordering: Bool { isReordered }

}
