/// The parameter sets of an H.264 stream's configuration: from an avcC record (ISO/IEC 14496-15
/// 5.3.3.1: version 1, profile, compatibility, level, 6 bits + lengthSizeMinusOne, 3 bits + SPS
/// count, each SPS with a 16-bit length, PPS count, each PPS with a 16-bit length) or from Annex B
/// bytes (an encoder's SPS and PPS). Two streams whose sets are equal can be spliced at an IDR.
public struct AVCConfiguration: Equatable, Sendable {
    /// Bytes of each NAL unit's length field in packets (1, 2 or 4); nil for Annex B.
    public let lengthSize: Int?
    /// The SPS and PPS NAL units, header byte included, in order.
    public let sequenceParameterSets: [[UInt8]]
    public let pictureParameterSets: [[UInt8]]

    /// Reads an avcC record; nil when `avcC` is not one (Annex B extradata, truncated, other codecs).
    public init?(avcC: [UInt8]) {
        guard avcC.count >= 7, avcC[0] == 1 else { return nil }
        var offset = 6
        func sets(count: Int) -> [[UInt8]]? {
            var units: [[UInt8]] = []
            for _ in 0..<count {
                guard offset + 2 <= avcC.count else { return nil }
                let length = Int(avcC[offset]) << 8 | Int(avcC[offset + 1])
                offset += 2
                guard length > 0, offset + length <= avcC.count else { return nil }
                units.append(Array(avcC[offset..<offset + length]))
                offset += length
            }
            return units
        }
        guard let sps = sets(count: Int(avcC[5] & 0x1F)) else { return nil }
        guard offset < avcC.count else { return nil }
        let ppsCount = Int(avcC[offset])
        offset += 1
        guard let pps = sets(count: ppsCount) else { return nil }
        lengthSize = Int(avcC[4] & 3) + 1
        sequenceParameterSets = sps
        pictureParameterSets = pps
    }

    /// The SPS and PPS NAL units of Annex B `bytes` (others are ignored).
    public init(annexB bytes: [UInt8]) {
        var sps: [[UInt8]] = []
        var pps: [[UInt8]] = []
        bytes.withUnsafeBytes { data in
            NALPackaging.annexB.forEachNALUnit(in: data) { unit in
                guard let header = unit.first else { return }
                if header & 0x1F == 7 { sps.append(Array(unit)) }
                if header & 0x1F == 8 { pps.append(Array(unit)) }
            }
        }
        lengthSize = nil
        sequenceParameterSets = sps
        pictureParameterSets = pps
    }

    /// Whether both hold the same parameter sets, however packaged.
    public func hasSameParameterSets(as other: AVCConfiguration) -> Bool {
        sequenceParameterSets == other.sequenceParameterSets && pictureParameterSets == other.pictureParameterSets
    }

    /// Annex B `data` with each NAL unit behind a big-endian length field of `lengthSize` bytes
    /// instead of a start code, as MP4 and Matroska packets carry them; nil when a unit is too long
    /// for the field.
    public static func lengthPrefixed(annexB data: UnsafeRawBufferPointer, lengthSize: Int) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 16)
        var fits = true
        NALPackaging.annexB.forEachNALUnit(in: data) { unit in
            guard lengthSize == 4 || unit.count < 1 << (8 * lengthSize) else {
                fits = false
                return
            }
            for shift in stride(from: 8 * (lengthSize - 1), through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: unit.count >> shift))
            }
            out += unit
        }
        return fits ? out : nil
    }
}
