import HFRMedia
import HFRProbe

/// Which frames a lossless export keeps: in each segment of the time map, the frames whose level is
/// at most that segment's `maxLevels` entry. Kept packets are copied byte for byte.
///
/// A frame's level is its SVC temporal id; in streams without temporal ids, 0 for reference frames
/// and 1 for non-reference ones (`nal_ref_idc` 0, which `sdtp` marks). A segment whose speed S makes
/// each output frame advance the source by C·S/O = 2^k frames keeps levels 0…(levels−1−k), provided
/// those frames are evenly spaced (checked on the whole stream by the analysis).
///
/// Why switching is safe: a frame only references frames of its own or lower levels (the H.264
/// temporal-layer rule; non-reference frames are referenced by nothing). Keeping *fewer* levels from
/// some frame on is therefore safe anywhere: every kept frame's references were kept before too.
/// Keeping *more* levels is safe only from a base-layer frame (temporal id 0) on: in a nested
/// hierarchy (0,2,1,2,… as OpenH264 writes it) no frame after a base-layer frame references an upper
/// layer frame before it, but an upper-layer frame just after an arbitrary boundary may reference a
/// dropped one. So with temporal ids, segment boundaries are snapped to base-layer frames; with
/// `nal_ref_idc` levels any boundary works, since dropped non-reference frames are never referenced.
public struct LayerPlan: Sendable, Equatable {
    /// Highest level kept, per segment of the (snapped) time map.
    public let maxLevels: [Int]
    /// Levels in the stream (temporal layers, or 2/1 for reference-flag streams).
    public let levelCount: Int
    /// Whether levels are SVC temporal ids (else reference flags).
    public let usesTemporalID: Bool

    public init(maxLevels: [Int], levelCount: Int, usesTemporalID: Bool) {
        self.maxLevels = maxLevels
        self.levelCount = levelCount
        self.usesTemporalID = usesTemporalID
    }

    /// Source frames per output frame: capture rate × speed ÷ output rate.
    public static func stride(capture: Rational, speed: Rational, output: Rational) -> Rational {
        capture * speed / output
    }

    /// Levels the stream distinguishes.
    public static func levelCount(_ v: ProbeReport.VideoStructure) -> Int {
        switch v.layerSignalling {
        case .svcTemporalID: v.layers.count
        case .nalRefIdc: v.droppableFrameCount > 0 ? 2 : 1
        case .none: 1
        }
    }

    /// Strides reachable by dropping whole upper levels, evenly spaced: stride → highest kept level.
    /// A cut is evenly spaced when the analysis says so exactly, or `evenCuts` (to within a tick).
    public static func losslessStrides(_ v: ProbeReport.VideoStructure, evenCuts: Set<Int> = []) -> [Int: Int] {
        let count = levelCount(v)
        var strides = [1: count - 1]
        guard count > 1 else { return strides }
        for k in 1..<count {
            let cut = count - 1 - k
            let stride = 1 << k
            let entry: ProbeReport.ReachableRate?
            switch v.layerSignalling {
            case .svcTemporalID:
                // The analysis lists cuts from all layers down to layer 0.
                let index = (v.layers.count - 1) - cut
                entry = index < v.reachableRates.count ? v.reachableRates[index] : nil
            default:
                entry = v.reachableRates.first { $0.description == "reference frames" }
            }
            guard let entry, entry.isUniform || evenCuts.contains(cut),
                abs(entry.keptFrames * stride - v.frameCount) < stride
            else { continue }
            strides[stride] = cut
        }
        return strides
    }

    /// A frame's level: its temporal id, or 1 when it is a non-reference frame of a stream without ids.
    public static func level(of frame: FrameStructure, usesTemporalID: Bool) -> Int {
        usesTemporalID ? (frame.temporalID ?? 0) : (frame.isDroppable ? 1 : 0)
    }

    /// Whether a frame of `level` is kept in segment `segment`.
    public func keeps(level: Int, segment: Int) -> Bool { level <= maxLevels[segment] }
}
