/// The smallest and largest step between consecutive timestamps of the frames one layer cut keeps,
/// in decode order: a cut is evenly spaced when they differ by at most one tick (containers with
/// coarse time bases round 1/60 s to 16 or 17 ms). Constant memory.
struct GapRange: Sendable {
    private var last: Int64?
    private(set) var smallest: Int64 = .max
    private(set) var largest: Int64 = .min
    private(set) var isOrdered = true

    mutating func keep(_ pts: Int64?) {
        guard let pts else {
            isOrdered = false
            return
        }
        if let last {
            let gap = pts - last
            if gap <= 0 { isOrdered = false }
            smallest = min(smallest, gap)
            largest = max(largest, gap)
        }
        last = pts
    }

    /// Evenly spaced to within a tick (false when timestamps are out of order: B-frames).
    var isEven: Bool { isOrdered && (smallest == .max || largest - smallest <= 1) }
    /// In order, with gaps of different lengths (a variable frame rate).
    var isUneven: Bool { isOrdered && !isEven }
}
