import Testing

@testable import HFRProbe

/// `ParameterSetEdit` swaps sequence-level parameter sets in place and leaves every other byte.
struct ParameterSetEditTests {
    // Made-up units: only the NAL header bytes matter to the edit.
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x15]
    static let newSPS: [UInt8] = [0x67, 0x42, 0xC0, 0x15, 0x8C, 0x8D, 0x70]
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    static let slice: [UInt8] = [0x65, 0xB8, 0x00, 0x04]
    let h264 = ParameterSetEdit(codec: .h264)

    func swapSPS(_ unit: [UInt8]) -> [UInt8]? { unit == Self.sps ? Self.newSPS : nil }

    /// avcC: the SPS and its 16-bit length change; the header, the PPS and the High profile
    /// extension after them stay.
    @Test func avcCRecordGetsTheNewSPS() {
        let header: [UInt8] = [1, 0x64, 0, 0x28, 0xFF, 0xE1]
        let extensionBytes: [UInt8] = [0xFD, 0xF8, 0xF8, 0]
        let record = header + [0, 4] + Self.sps + [1, 0, 4] + Self.pps + extensionBytes
        #expect(
            h264.extradata(record, swapSPS) == header + [0, 7] + Self.newSPS + [1, 0, 4] + Self.pps + extensionBytes)
    }

    /// hvcC: VPS and SPS arrays are edited, the PPS array stays, counts are kept.
    @Test func hvcCRecordGetsNewVPSAndSPS() {
        let vps: [UInt8] = [0x40, 0x01, 0x0C]
        let sps: [UInt8] = [0x42, 0x01, 0x01]
        let pps: [UInt8] = [0x44, 0x01, 0xC1]
        let fixed = [UInt8](repeating: 0, count: 21) + [0x0F]
        let record =
            fixed + [3] + [0xA0, 0, 1, 0, 3] + vps + [0xA1, 0, 1, 0, 3] + sps + [0xA2, 0, 1, 0, 3] + pps
        let out = ParameterSetEdit(codec: .hevc).extradata(record) { $0 + [0xAA] }
        #expect(
            out == fixed + [3] + [0xA0, 0, 1, 0, 4] + vps + [0xAA] + [0xA1, 0, 1, 0, 4] + sps + [0xAA]
                + [0xA2, 0, 1, 0, 3] + pps)
    }

    /// Length-prefixed packets: the SPS's length field follows its new size; slices are untouched.
    @Test(arguments: [4, 2])
    func lengthPrefixedPacketGetsTheNewSPS(lengthSize: Int) {
        func prefixed(_ unit: [UInt8]) -> [UInt8] {
            (0..<lengthSize).reversed().map { UInt8(truncatingIfNeeded: unit.count >> (8 * $0)) } + unit
        }
        let packet = prefixed(Self.sps) + prefixed(Self.pps) + prefixed(Self.slice)
        let out = packet.withUnsafeBytes {
            h264.packet($0, packaging: .lengthPrefixed(lengthSize: lengthSize), swapSPS)
        }
        #expect(out == prefixed(Self.newSPS) + prefixed(Self.pps) + prefixed(Self.slice))
    }

    /// Annex B: start codes (three or four bytes) and everything between units stay as they were.
    @Test func annexBPacketKeepsItsStartCodes() {
        let packet: [UInt8] = [0, 0, 0, 1] + Self.sps + [0, 0, 1] + Self.pps + [0, 0, 0, 1] + Self.slice
        let out = packet.withUnsafeBytes { h264.packet($0, packaging: .annexB, swapSPS) }
        #expect(out == [0, 0, 0, 1] + Self.newSPS + [0, 0, 1] + Self.pps + [0, 0, 0, 1] + Self.slice)
    }

    /// Nothing to change, or a unit too long for a one-byte length field: nil (keep the packet).
    @Test func packetsLeftAloneGiveNil() {
        let slices: [UInt8] = [0, 0, 0, 4] + Self.slice
        #expect(slices.withUnsafeBytes { h264.packet($0, packaging: .lengthPrefixed(lengthSize: 4), swapSPS) } == nil)
        let small: [UInt8] = [4] + Self.sps
        let grown = small.withUnsafeBytes {
            h264.packet($0, packaging: .lengthPrefixed(lengthSize: 1)) { _ in [UInt8](repeating: 0x67, count: 300) }
        }
        #expect(grown == nil)
    }

    /// A record that does not parse comes back unchanged.
    @Test func truncatedAvcCIsKept() {
        let record: [UInt8] = [1, 0x64, 0, 0x28, 0xFF, 0xE1, 0, 9] + Self.sps
        #expect(h264.extradata(record, swapSPS) == record)
    }
}
