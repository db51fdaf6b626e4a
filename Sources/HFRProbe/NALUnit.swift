/// One H.264 NAL unit's header fields and where its payload lies in the packet.
struct NALUnit {
    /// nal_ref_idc: 0 means no other picture uses this one as a reference.
    let refIdc: UInt8
    /// nal_unit_type: 1/5 slices (5 = IDR), 14 SVC prefix, 20 SVC slice extension, 6 SEI, 7/8 SPS/PPS.
    let type: UInt8
    /// The bytes after the one-byte header.
    let payload: UnsafeRawBufferPointer

    static let nonIDRSlice: UInt8 = 1
    static let idrSlice: UInt8 = 5
    static let sps: UInt8 = 7
    static let prefix: UInt8 = 14
    static let sliceExtension: UInt8 = 20

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let header = bytes.first, header & 0x80 == 0 else { return nil }
        refIdc = (header >> 5) & 3
        type = header & 0x1F
        payload = UnsafeRawBufferPointer(rebasing: bytes[1...])
    }

    var isSlice: Bool { type == NALUnit.nonIDRSlice || type == NALUnit.idrSlice }

    /// temporal_id from the SVC extension header of a prefix (14) or slice extension (20) NAL unit.
    ///
    /// nal_unit_header_svc_extension (H.264 G.7.3.1.1): byte 0 starts with svc_extension_flag,
    /// byte 2 starts with the three bits of temporal_id.
    var temporalID: Int? {
        guard type == NALUnit.prefix || type == NALUnit.sliceExtension, payload.count >= 3,
            payload[0] & 0x80 != 0
        else { return nil }
        return Int(payload[2] >> 5)
    }
}

/// How NAL units are delimited inside a packet.
public enum NALPackaging: Equatable, Sendable {
    /// MP4/MKV style: each NAL unit preceded by its length in `lengthSize` bytes (from avcC).
    case lengthPrefixed(lengthSize: Int)
    /// Raw stream style: NAL units separated by 00 00 01 start codes.
    case annexB

    /// Reads the packaging from a stream's extradata: an avcC record starts with version 1.
    public init(extradata: [UInt8]) {
        if extradata.count >= 7, extradata[0] == 1 {
            self = .lengthPrefixed(lengthSize: Int(extradata[4] & 3) + 1)
        } else {
            self = .annexB
        }
    }

    /// Calls `body` with each NAL unit in `data`; stops quietly at a malformed length.
    func forEachNALUnit(in data: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        switch self {
        case .lengthPrefixed(let lengthSize):
            var offset = 0
            while offset + lengthSize <= data.count {
                var length = 0
                for i in 0..<lengthSize { length = length << 8 | Int(data[offset + i]) }
                offset += lengthSize
                guard length > 0, offset + length <= data.count else { return }
                body(UnsafeRawBufferPointer(rebasing: data[offset..<offset + length]))
                offset += length
            }
        case .annexB:
            var start: Int? = nil
            var i = 0
            while i + 2 < data.count {
                if data[i] == 0, data[i + 1] == 0, data[i + 2] == 1 {
                    if let s = start { body(UnsafeRawBufferPointer(rebasing: data[s..<trimZeros(data, i)])) }
                    i += 3
                    start = i
                } else {
                    i += 1
                }
            }
            if let s = start, s < data.count { body(UnsafeRawBufferPointer(rebasing: data[s..<data.count])) }
        }
    }

    /// Where the NAL unit `bytes` (a slice of `data`) starts with its length field or start code.
    func unitStart(of bytes: UnsafeRawBufferPointer, in data: UnsafeRawBufferPointer) -> Int {
        let offset = bytes.baseAddress! - data.baseAddress!
        switch self {
        case .lengthPrefixed(let lengthSize): return offset - lengthSize
        case .annexB: return trimZeros(data, offset - 3)
        }
    }

    // A four-byte start code's leading zero belongs to the start code, not the previous NAL unit.
    private func trimZeros(_ data: UnsafeRawBufferPointer, _ end: Int) -> Int {
        var e = end
        while e > 0, data[e - 1] == 0 { e -= 1 }
        return e
    }
}
