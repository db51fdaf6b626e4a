/// Output frame indices (0 = the first frame shown) as runs, written `120-122,300`: the frames of
/// an hfr export that `--fill-drops` synthesized where the capture had dropped frames, in the
/// output's `com.hfr.filled-drops` tag, which `hfr probe` reads back.
public struct FrameRanges: Sendable, Equatable, CustomStringConvertible {
    /// Ascending, disjoint and not touching (`5-7,8` is kept as `5-8`).
    public private(set) var ranges: [ClosedRange<Int64>] = []

    public init() {}

    /// Frames given in ascending order: each joins the last run when it follows it.
    public mutating func append(_ frame: Int64) {
        if let last = ranges.last, frame <= last.upperBound + 1 {
            ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, frame)
        } else {
            ranges.append(frame...frame)
        }
    }

    /// How many frames the runs hold.
    public var count: Int { ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound + 1) } }

    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `frame` is in a run (a binary search).
    public func contains(_ frame: Int64) -> Bool {
        var (lo, hi) = (0, ranges.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound < frame { lo = mid + 1 } else { hi = mid }
        }
        return lo < ranges.count && ranges[lo].contains(frame)
    }

    /// `120-122,300`; empty for no frames.
    public var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",")
    }

    /// Reads `description`'s form back; nil when it is not that (runs out of order, negative or
    /// backwards, other characters).
    public init?(parsing text: String) {
        guard !text.isEmpty else { return nil }
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count), ends.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
                let lo = Int64(ends[0]), let hi = Int64(ends[ends.count - 1]), lo >= 0, hi >= lo,
                ranges.last.map({ lo > $0.upperBound + 1 }) ?? true
            else { return nil }
            ranges.append(lo...hi)
        }
    }
}
