/// Replaces an H.264 or HEVC stream's sequence-level parameter sets (H.264 SPS; HEVC VPS and SPS)
/// where they are stored: an avcC or hvcC record, Annex B extradata, and packets that repeat them
/// in band. Only the byte layout is handled here (length fields, counts); the new NAL units come
/// from the caller.
public struct ParameterSetEdit: Sendable {
    public let codec: FrameParser.Codec

    public init(codec: FrameParser.Codec) { self.codec = codec }

    /// nal_unit_type of `nal` (its header included); nil when the header is not one.
    public func type(_ nal: UnsafeRawBufferPointer) -> UInt8? {
        codec == .h264 ? NALUnit(nal)?.type : HEVCNALUnit(nal)?.type
    }

    /// Whether `nal` (its header included) is a parameter set this edit replaces.
    public func isEdited(_ nal: UnsafeRawBufferPointer) -> Bool {
        guard let type = type(nal) else { return false }
        return codec == .h264 ? type == NALUnit.sps : type == HEVCNALUnit.vps || type == HEVCNALUnit.sps
    }

    /// The NAL units of Annex B `data` (start codes removed).
    public static func annexBUnits(_ data: UnsafeRawBufferPointer) -> [[UInt8]] {
        var units: [[UInt8]] = []
        NALPackaging.annexB.forEachNALUnit(in: data) { units.append(Array($0)) }
        return units
    }

    /// `extradata` with each edited NAL unit replaced by `transform`'s (nil from it keeps the unit).
    /// A record whose layout does not parse comes back as it was.
    public func extradata(_ extradata: [UInt8], _ transform: ([UInt8]) -> [UInt8]?) -> [UInt8] {
        let annexB = extradata.starts(with: [0, 0, 1]) || extradata.starts(with: [0, 0, 0, 1])
        switch codec {
        case .h264 where !annexB && extradata.count >= 7 && extradata[0] == 1:
            return avcC(extradata, transform) ?? extradata
        case .hevc where !annexB && extradata.count >= 23:
            return hvcC(extradata, transform) ?? extradata
        default:
            return extradata.withUnsafeBytes { packet($0, packaging: .annexB, transform) } ?? extradata
        }
    }

    /// `data` (one packet) with each edited NAL unit replaced; nil when none changed (or a new one
    /// would not fit the stream's length field).
    public func packet(
        _ data: UnsafeRawBufferPointer, packaging: NALPackaging, _ transform: ([UInt8]) -> [UInt8]?
    ) -> [UInt8]? {
        var out: [UInt8] = []
        var cursor = 0
        var changed = false
        var fits = true
        packaging.forEachNALUnit(in: data) { nal in
            guard fits, isEdited(nal), let new = transform(Array(nal)), !new.elementsEqual(nal) else { return }
            let start = nal.baseAddress! - data.baseAddress!
            switch packaging {
            case .lengthPrefixed(let size):
                guard size == 4 || new.count < 1 << (8 * size) else {
                    fits = false
                    return
                }
                out += data[cursor..<start - size]
                out += (0..<size).reversed().map { UInt8(truncatingIfNeeded: new.count >> (8 * $0)) }
            case .annexB:
                out += data[cursor..<start]
            }
            out += new
            cursor = start + nal.count
            changed = true
        }
        guard fits, changed else { return nil }
        return out + data[cursor...]
    }

    /// avcC: 5 fixed bytes, the SPS count (low 5 bits) and SPSs (16-bit lengths), the PPS count and
    /// PPSs, then the High profiles' extension, kept as it is.
    private func avcC(_ e: [UInt8], _ transform: ([UInt8]) -> [UInt8]?) -> [UInt8]? {
        var offset = 6
        var units: [[UInt8]] = []
        for _ in 0..<Int(e[5] & 0x1F) {
            guard let unit = Self.unit(in: e, at: &offset) else { return nil }
            units.append(unit)
        }
        var out = Array(e[0..<6])
        for unit in units { out += Self.sized(edited(unit, transform)) }
        return out + e[offset...]
    }

    /// hvcC: 22 fixed bytes, the array count, then per array its type byte, a 16-bit count and the
    /// NAL units (16-bit lengths); anything after the arrays is kept.
    private func hvcC(_ e: [UInt8], _ transform: ([UInt8]) -> [UInt8]?) -> [UInt8]? {
        var out = Array(e[0..<23])
        var offset = 23
        for _ in 0..<Int(e[22]) {
            guard offset + 3 <= e.count else { return nil }
            out += e[offset..<offset + 3]
            let count = Int(e[offset + 1]) << 8 | Int(e[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard let unit = Self.unit(in: e, at: &offset) else { return nil }
                out += Self.sized(edited(unit, transform))
            }
        }
        return out + e[offset...]
    }

    private func edited(_ unit: [UInt8], _ transform: ([UInt8]) -> [UInt8]?) -> [UInt8] {
        let isEdited = unit.withUnsafeBytes { self.isEdited($0) }
        guard isEdited, let new = transform(unit), new.count < 1 << 16 else { return unit }
        return new
    }

    /// The NAL unit with a 16-bit length at `offset`, which moves past it.
    private static func unit(in e: [UInt8], at offset: inout Int) -> [UInt8]? {
        guard offset + 2 <= e.count else { return nil }
        let length = Int(e[offset]) << 8 | Int(e[offset + 1])
        guard offset + 2 + length <= e.count else { return nil }
        defer { offset += 2 + length }
        return Array(e[offset + 2..<offset + 2 + length])
    }

    private static func sized(_ unit: [UInt8]) -> [UInt8] {
        [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit
    }
}
