/// Reads an H.264 RBSP bit by bit: fixed-width fields and Exp-Golomb codes.
///
/// Emulation-prevention bytes (the 0x03 in 00 00 03) are skipped as the bytes are read, so the
/// caller passes the NAL unit payload as stored.
struct BitReader {
    private let bytes: UnsafeRawBufferPointer
    private var byteIndex = 0
    private var bitIndex = 0  // 0 = most significant bit of the current byte
    private var zeroRun = 0  // consecutive zero bytes consumed, to spot emulation prevention

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        skipEmulationPrevention()
    }

    /// Thrown when a field runs past the end of the NAL unit.
    struct Exhausted: Error {}

    mutating func bit() throws(Exhausted) -> UInt32 {
        guard byteIndex < bytes.count else { throw Exhausted() }
        let value = UInt32(bytes[byteIndex] >> (7 - bitIndex)) & 1
        bitIndex += 1
        if bitIndex == 8 {
            bitIndex = 0
            zeroRun = bytes[byteIndex] == 0 ? zeroRun + 1 : 0
            byteIndex += 1
            skipEmulationPrevention()
        }
        return value
    }

    mutating func bits(_ count: Int) throws(Exhausted) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count { value = value << 1 | (try bit()) }
        return value
    }

    /// ue(v): unsigned Exp-Golomb.
    mutating func unsignedExpGolomb() throws(Exhausted) -> UInt32 {
        var leadingZeros = 0
        while try bit() == 0 {
            leadingZeros += 1
            if leadingZeros > 31 { throw Exhausted() }
        }
        return (UInt32(1) << leadingZeros) - 1 + (try bits(leadingZeros))
    }

    private mutating func skipEmulationPrevention() {
        if zeroRun >= 2, byteIndex < bytes.count, bytes[byteIndex] == 3 {
            byteIndex += 1
            zeroRun = 0
        }
    }
}
