/// What the bitstream says about one frame (one access unit): its role in prediction. Read from
/// H.264 (nal_ref_idc, SVC temporal id) or HEVC (temporal id, sub-layer non-reference types).
public struct FrameStructure: Equatable, Sendable {
    /// Slice type of a picture, from the first slice's slice_type.
    public enum SliceType: String, Sendable {
        case p = "P", b = "B", i = "I", sp = "SP", si = "SI"
        init(code: UInt32) {
            self = [.p, .b, .i, .sp, .si][Int(code % 5)]
        }
    }

    /// The highest nal_ref_idc of the frame's slices; 0 = not used for reference. HEVC: 0 when every
    /// slice is a sub-layer non-reference type, else 1.
    public var nalRefIdc: UInt8
    /// nil for HEVC (its slice header needs the parameter sets).
    public var sliceType: SliceType?
    /// H.264 IDR; HEVC IRAP (IDR, CRA, BLA).
    public var isIDR: Bool
    /// temporal_id from the SVC prefix NAL unit (H.264) or the NAL header (HEVC), when known.
    public var temporalID: Int?
    /// Number of coded slices (0 for a packet that holds no picture).
    public var sliceCount: Int
    /// A frame no other frame references: it can be removed without re-encoding.
    public var isDroppable: Bool
    /// H.264: bytes at the end of the packet (length fields or start codes included) holding SVC
    /// prefix NAL units after the last slice. They belong to the next packet's first slice (FFmpeg's
    /// stream copy of a raw OpenH264 stream puts them there).
    public var trailingPrefix: Range<Int>?
    /// The temporal id those trailing prefix NAL units give the next packet.
    public var trailingTemporalID: Int?
    /// The packet repeats a sequence-level parameter set (H.264 SPS; HEVC VPS or SPS).
    public var carriesSequenceParameters = false

    /// Reads an H.264 frame's NAL units from one packet, without a prefix carried from the last one.
    public init(packet data: UnsafeRawBufferPointer, packaging: NALPackaging) {
        self.init(h264: data, packaging: packaging, carriedTemporalID: nil)
    }

    /// Reads an H.264 frame; `carriedTemporalID` is the previous packet's `trailingTemporalID`.
    public init(h264 data: UnsafeRawBufferPointer, packaging: NALPackaging, carriedTemporalID: Int?) {
        self.init()
        var pending = carriedTemporalID
        var prefixStart: Int? = nil
        packaging.forEachNALUnit(in: data) { bytes in
            guard let nal = NALUnit(bytes) else { return }
            if nal.type == NALUnit.sps { carriesSequenceParameters = true }
            if let tid = nal.temporalID {
                pending = tid
                if nal.type == NALUnit.prefix, prefixStart == nil {
                    prefixStart = packaging.unitStart(of: bytes, in: data)
                }
                return
            }
            guard nal.isSlice else { return }
            prefixStart = nil
            addSlice(nal, pendingTemporalID: pending)
        }
        isDroppable = sliceCount > 0 && nalRefIdc == 0
        if sliceCount > 0, let start = prefixStart {
            trailingPrefix = start..<data.count
            trailingTemporalID = pending
        }
    }

    private init() {
        nalRefIdc = 0
        sliceType = nil
        isIDR = false
        temporalID = nil
        sliceCount = 0
        isDroppable = false
    }

    private mutating func addSlice(_ nal: NALUnit, pendingTemporalID: Int?) {
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

    /// Reads an HEVC frame. A sub-layer non-reference picture is droppable when it is in the highest
    /// sub-layer the SPS allows (`maxTemporalID`): no other sub-layer can reference it then.
    /// An SPS in the packet updates `maxTemporalID`.
    public init(hevc data: UnsafeRawBufferPointer, packaging: NALPackaging, maxTemporalID: inout Int?) {
        self.init()
        var allNonReference = true
        var top = maxTemporalID
        packaging.forEachNALUnit(in: data) { bytes in
            guard let nal = HEVCNALUnit(bytes), nal.layerID == 0 else { return }
            if nal.type == HEVCNALUnit.vps || nal.type == HEVCNALUnit.sps { carriesSequenceParameters = true }
            if let max = nal.maxTemporalID { top = max }
            guard nal.isVCL else { return }
            sliceCount += 1
            temporalID = max(temporalID ?? 0, nal.temporalID)
            if nal.isIRAP { isIDR = true }
            if !nal.isSubLayerNonReference { allNonReference = false }
        }
        maxTemporalID = top
        nalRefIdc = sliceCount > 0 && allNonReference ? 0 : 1
        isDroppable = sliceCount > 0 && allNonReference && top.map { (temporalID ?? 0) >= $0 } == true
    }
}
