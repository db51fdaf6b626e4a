import HFRMedia
import HFRProbe

/// Which frames a lossless export keeps: in each segment of the time map, the frames whose level is
/// at most that segment's `maxLevels` entry. Kept packets are copied byte for byte.
///
/// A frame's level is its temporal id (H.264: SVC prefix NAL units; HEVC: nuh_temporal_id_plus1 − 1);
/// in H.264 streams without temporal ids, 0 for reference frames and 1 for non-reference ones
/// (`nal_ref_idc` 0, which `sdtp` marks). A segment whose speed S makes each output frame advance the
/// source by C·S/O = 2^k frames keeps the levels whose cut keeps 1 frame in 2^k, provided those
/// frames are evenly spaced (checked on the whole stream by the analysis).
///
/// Why switching is safe: a frame only references frames of its own or lower levels (the H.264
/// temporal-layer rule; in HEVC a normative one: a picture never references a picture of a higher
/// TemporalId, so removing every NAL unit above a TemporalId leaves a conforming stream, H.265 8.3.2
/// and 10; non-reference frames are referenced by nothing). Keeping *fewer* levels from some frame
/// on is therefore safe anywhere: every kept frame's references were kept before too, and the top
/// kept layer stays decodable. Keeping *more* levels is safe only from a base-layer frame (temporal
/// id 0) on: in a nested hierarchy (0,2,1,2,… as OpenH264 writes it; HEVC with
/// sps_temporal_id_nesting_flag, or whose upper sub-layers hold only sub-layer non-reference/TSA
/// pictures, as x265's `temporal-layers` writes) no frame after a base-layer frame references an
/// upper-layer frame before it, but an upper-layer frame just after an arbitrary boundary may
/// reference a dropped one. So with temporal ids, segment boundaries are snapped to base-layer
/// frames; with `nal_ref_idc` levels any boundary works, since dropped non-reference frames are never
/// referenced.
public struct LayerPlan: Sendable, Equatable {
    /// Highest level kept, per segment of the (snapped) time map.
    public let maxLevels: [Int]
    /// Levels in the stream (temporal layers, or 2/1 for reference-flag streams).
    public let levelCount: Int
    /// Whether levels are temporal ids (H.264 SVC or HEVC; else reference flags).
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
        case .svcTemporalID, .hevcTemporalID: v.layers.count
        case .nalRefIdc: v.droppableFrameCount > 0 ? 2 : 1
        case .none: 1
        }
    }

    /// Strides reachable by dropping whole upper levels, evenly spaced: stride → highest kept level.
    /// A cut's stride is the power of two its kept share is (OpenH264 halves per layer; an HEVC
    /// base sub-layer may hold 1 frame in 4). A cut is evenly spaced when the analysis says so
    /// exactly, or `evenCuts` (to within a tick).
    public static func losslessStrides(_ v: ProbeReport.VideoStructure, evenCuts: Set<Int> = []) -> [Int: Int] {
        let count = levelCount(v)
        var strides = [1: count - 1]
        guard count > 1, v.frameCount > 0 else { return strides }
        for cut in (0..<count - 1).reversed() {
            let entry: ProbeReport.ReachableRate?
            if v.layerSignalling.hasTemporalIDs {
                // The analysis lists cuts from all layers down to layer 0.
                let index = (v.layers.count - 1) - cut
                entry = index < v.reachableRates.count ? v.reachableRates[index] : nil
            } else {
                entry = v.reachableRates.first { $0.description == "reference frames" }
            }
            guard let entry, entry.keptFrames > 0, entry.isUniform || evenCuts.contains(cut) else { continue }
            var stride = 1
            while stride * entry.keptFrames * 4 <= v.frameCount * 3 { stride *= 2 }
            guard stride > 1, abs(entry.keptFrames * stride - v.frameCount) < stride, strides[stride] == nil
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
