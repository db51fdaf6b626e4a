/// What the H.264 bitstream says about one frame (one access unit): its role in prediction.
public struct FrameStructure: Equatable, Sendable {
    /// Slice type of a picture, from the first slice's slice_type.
    public enum SliceType: String, Sendable {
        case p = "P", b = "B", i = "I", sp = "SP", si = "SI"
        init(code: UInt32) {
            self = [.p, .b, .i, .sp, .si][Int(code % 5)]
        }
    }

    /// The highest nal_ref_idc of the frame's slices; 0 = not used for reference.
    public var nalRefIdc: UInt8
    public var sliceType: SliceType?
    public var isIDR: Bool
    /// temporal_id from the SVC prefix NAL unit, when the stream carries them.
    public var temporalID: Int?
    /// Number of coded slices (0 for a packet that holds no picture).
    public var sliceCount: Int

    /// A frame no other frame references: it can be removed without re-encoding.
    public var isDroppable: Bool { sliceCount > 0 && nalRefIdc == 0 }

    /// Reads the frame's NAL units from one packet.
    public init(packet data: UnsafeRawBufferPointer, packaging: NALPackaging) {
        nalRefIdc = 0
        sliceType = nil
        isIDR = false
        temporalID = nil
        sliceCount = 0
        var pendingTemporalID: Int? = nil
        packaging.forEachNALUnit(in: data) { bytes in
            guard let nal = NALUnit(bytes) else { return }
            if let tid = nal.temporalID {
                pendingTemporalID = tid
                return
            }
            guard nal.isSlice else { return }
            sliceCount += 1
            nalRefIdc = max(nalRefIdc, nal.refIdc)
            if nal.type == NALUnit.idrSlice { isIDR = true }
            if temporalID == nil { temporalID = pendingTemporalID }
            if sliceType == nil {
                // slice_header(): first_mb_in_slice ue(v), then slice_type ue(v).
                var reader = BitReader(nal.payload)
                if (try? reader.unsignedExpGolomb()) != nil, let code = try? reader.unsignedExpGolomb() {
                    sliceType = SliceType(code: code)
                }
            }
        }
    }
}
