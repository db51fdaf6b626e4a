/// One EBML element's layout: ID, where its size field and data lie. What hfr's Matroska patches
/// (`MatroskaRotationPatch`, `MatroskaTimestampScalePatch`) walk the head of a file with.
struct EBMLElement {
    var id: UInt32
    var start: Int
    var sizeStart: Int
    var sizeLength: Int
    var dataSize: Int
    var dataStart: Int { sizeStart + sizeLength }
    var end: Int { dataStart + dataSize }

    /// The ID of the `CRC-32` element FFmpeg writes first in every level-1 element but WebM's.
    static let crcID: UInt32 = 0xBF

    /// The element at `offset`; nil when its header does not fit or is not EBML.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard let (id, idLength) = EBMLElement.vint(bytes, at: offset, keepingMarker: true), idLength <= 4,
            let (size, sizeLength) = EBMLElement.vint(bytes, at: offset + idLength, keepingMarker: false)
        else { return nil }
        self.id = UInt32(id)
        start = offset
        sizeStart = offset + idLength
        self.sizeLength = sizeLength
        // An unknown size (all ones) runs to the end of what is read.
        let unknown = size == (UInt64(1) << (7 * sizeLength)) - 1
        dataSize = unknown ? bytes.count - offset - idLength - sizeLength : Int(size)
    }

    static func vint(_ bytes: [UInt8], at offset: Int, keepingMarker: Bool) -> (UInt64, Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard offset + length <= bytes.count else { return nil }
        var value = UInt64(keepingMarker ? bytes[offset] : bytes[offset] & (0xFF >> length))
        for i in 1..<length { value = value << 8 | UInt64(bytes[offset + i]) }
        return (value, length)
    }

    static func children(_ bytes: [UInt8], from: Int, to: Int) -> [EBMLElement] {
        var out: [EBMLElement] = []
        var offset = from
        while offset < to, let e = EBMLElement(bytes, at: offset), e.end <= to {
            out.append(e)
            offset = e.end
        }
        return out
    }

    /// The children of this element.
    func children(_ bytes: [UInt8]) -> [EBMLElement] {
        EBMLElement.children(bytes, from: dataStart, to: min(end, bytes.count))
    }

    func unsigned(_ bytes: [UInt8]) -> UInt64 {
        bytes[dataStart..<end].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Writes `value` as this unsigned integer's data, big-endian in the same length (EBML allows
    /// leading zeros); false when it does not fit.
    func setUnsigned(_ value: UInt64, in bytes: inout [UInt8]) -> Bool {
        guard dataSize <= 8, dataSize == 8 || value < UInt64(1) << (8 * dataSize) else { return false }
        var v = value
        for i in stride(from: end - 1, through: dataStart, by: -1) {
            bytes[i] = UInt8(truncatingIfNeeded: v)
            v >>= 8
        }
        return true
    }

    /// Writes `size` into this element's size field, in the same length; false when it does not fit.
    func setSize(_ size: Int, in bytes: inout [UInt8]) -> Bool {
        guard size >= 0, UInt64(size) < (UInt64(1) << (7 * sizeLength)) - 1 else { return false }
        var v = UInt64(size) | UInt64(1) << (7 * sizeLength)
        for i in stride(from: sizeLength - 1, through: 0, by: -1) {
            bytes[sizeStart + i] = UInt8(truncatingIfNeeded: v)
            v >>= 8
        }
        return true
    }

    /// Recomputes this level-1 element's `CRC-32` child (its first), if it has one.
    func updateCRC(in bytes: inout [UInt8]) {
        guard let crc = EBMLElement(bytes, at: dataStart), crc.id == EBMLElement.crcID, crc.dataSize == 4 else {
            return
        }
        let value = crc32(bytes[crc.end..<end])
        for i in 0..<4 { bytes[crc.dataStart + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }
}

/// CRC-32 as Matroska's `CRC-32` element holds it (IEEE 802.3, reflected, stored little-endian).
func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc = UInt32.max
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ UInt32.max
}
