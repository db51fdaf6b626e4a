/// One HEVC NAL unit's two-byte header (H.265 7.3.1.2): type, layer and temporal sub-layer.
struct HEVCNALUnit {
    /// nal_unit_type: 0-31 coded slices (VCL), 32 VPS, 33 SPS, 34 PPS, 35 AUD, 39/40 SEI.
    let type: UInt8
    let layerID: UInt8
    /// nuh_temporal_id_plus1 − 1: the temporal sub-layer.
    let temporalID: Int
    /// The bytes after the two-byte header.
    let payload: UnsafeRawBufferPointer

    static let vps: UInt8 = 32
    static let sps: UInt8 = 33

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 2, bytes[0] & 0x80 == 0, bytes[1] & 7 != 0 else { return nil }
        type = (bytes[0] >> 1) & 0x3F
        layerID = (bytes[0] & 1) << 5 | bytes[1] >> 3
        temporalID = Int(bytes[1] & 7) - 1
        payload = UnsafeRawBufferPointer(rebasing: bytes[2...])
    }

    /// A coded slice segment.
    var isVCL: Bool { type < 32 }

    /// TRAIL_N, TSA_N, STSA_N, RADL_N, RASL_N, RSV_VCL_N10/12/14: not used for reference by
    /// pictures of the same sub-layer (pictures of higher sub-layers may still use it).
    var isSubLayerNonReference: Bool { type <= 14 && type % 2 == 0 }

    /// Intra random access point (BLA, IDR, CRA and the reserved IRAP types 22-23).
    var isIRAP: Bool { (16...23).contains(type) }

    var isIDR: Bool { type == 19 || type == 20 }

    /// From an SPS: sps_max_sub_layers_minus1 (the highest temporal id the stream may use).
    var maxTemporalID: Int? {
        guard type == HEVCNALUnit.sps, let first = payload.first else { return nil }
        return Int(first >> 1) & 7
    }
}

extension NALPackaging {
    /// Reads the packaging from an HEVC stream's extradata: an hvcC record (version 1, the NAL
    /// length size in byte 21) or Annex B parameter sets.
    public init(hevcExtradata e: [UInt8]) {
        let isAnnexB = e.starts(with: [0, 0, 1]) || e.starts(with: [0, 0, 0, 1])
        if e.count >= 23, !isAnnexB {
            self = .lengthPrefixed(lengthSize: Int(e[21] & 3) + 1)
        } else {
            self = .annexB
        }
    }

    /// The NAL units of an hvcC record's parameter-set arrays (or of Annex B extradata).
    func forEachHEVCParameterSet(in e: [UInt8], _ body: (UnsafeRawBufferPointer) -> Void) {
        e.withUnsafeBytes { data in
            guard case .lengthPrefixed = self else { return forEachNALUnit(in: data, body) }
            // hvcC: 22 fixed bytes, numOfArrays, then per array: type byte, count (2), and per NAL
            // unit its length (2) and bytes.
            var offset = 23
            var arrays = Int(data[22])
            while arrays > 0, offset + 3 <= data.count {
                var units = Int(data[offset + 1]) << 8 | Int(data[offset + 2])
                offset += 3
                while units > 0, offset + 2 <= data.count {
                    let length = Int(data[offset]) << 8 | Int(data[offset + 1])
                    offset += 2
                    guard offset + length <= data.count else { return }
                    body(UnsafeRawBufferPointer(rebasing: data[offset..<offset + length]))
                    offset += length
                    units -= 1
                }
                arrays -= 1
            }
        }
    }
}
