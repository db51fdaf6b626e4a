import Testing

@testable import HFRProbe

/// H.264 bit-level reading on hand-made NAL units whose fields are known.
@Suite struct BitstreamTests {
    @Test(
        arguments: [
            ([0b1000_0000], [0]), ([0b0100_0000], [1]), ([0b0110_0000], [2]),
            ([0b0010_0000], [3]), ([0b0011_1000], [6]), ([0b1010_0111, 0b0110_0000], [0, 1, 2, 0, 2]),
        ] as [([UInt8], [UInt32])])
    func readsExpGolombCodes(bytes: [UInt8], expected: [UInt32]) {
        let decoded: [UInt32?] = bytes.withUnsafeBytes { raw in
            var reader = BitReader(raw)
            return expected.map { _ in try? reader.unsignedExpGolomb() }
        }
        #expect(decoded == expected)
    }

    @Test func skipsEmulationPreventionBytes() {
        // 00 00 03 01 holds the bits 00000000 00000000 00000001: the 03 is not data.
        let (value, exhausted): (UInt32?, Bool) = ([0x00, 0x00, 0x03, 0x01] as [UInt8]).withUnsafeBytes { raw in
            var reader = BitReader(raw)
            let value = try? reader.bits(24)
            return (value, (try? reader.bit()) == nil)
        }
        #expect(value == 1)
        #expect(exhausted)
    }

    /// A slice NAL: header byte, then first_mb_in_slice = 0 ("1") and slice_type ue(v).
    static func slice(refIdc: UInt8, idr: Bool = false, sliceType: UInt8) -> [UInt8] {
        let header = refIdc << 5 | (idr ? 5 : 1)
        // ue(v) codes for 0…7 after a leading "1" bit for first_mb_in_slice.
        let codes: [UInt8: UInt8] = [
            0: 0b1100_0000, 1: 0b1010_0000, 2: 0b1011_0000, 5: 0b1001_1000, 6: 0b1001_1100, 7: 0b1000_1000,
        ]
        return [header, codes[sliceType]!, 0x80]
    }

    /// An SVC prefix NAL unit (type 14) carrying `temporalID`.
    static func prefix(temporalID: UInt8, refIdc: UInt8) -> [UInt8] {
        [refIdc << 5 | 14, 0x80, 0x00, temporalID << 5 | 0x07]
    }

    static func lengthPrefixed(_ nals: [[UInt8]]) -> [UInt8] {
        nals.flatMap { [0, 0, 0, UInt8($0.count)] + $0 }
    }

    @Test func readsLayerRoleOfSVCFrames() {
        let top = Self.lengthPrefixed([Self.prefix(temporalID: 2, refIdc: 0), Self.slice(refIdc: 0, sliceType: 5)])
        let base = Self.lengthPrefixed([
            Self.prefix(temporalID: 0, refIdc: 3), Self.slice(refIdc: 3, idr: true, sliceType: 7),
        ])
        let a = top.withUnsafeBytes { FrameStructure(packet: $0, packaging: .lengthPrefixed(lengthSize: 4)) }
        let b = base.withUnsafeBytes { FrameStructure(packet: $0, packaging: .lengthPrefixed(lengthSize: 4)) }
        #expect(a.temporalID == 2 && a.nalRefIdc == 0 && a.sliceType == .p && a.isDroppable && !a.isIDR)
        #expect(b.temporalID == 0 && b.nalRefIdc == 3 && b.sliceType == .i && !b.isDroppable && b.isIDR)
    }

    @Test func splitsAnnexBWithThreeAndFourByteStartCodes() {
        let stream: [UInt8] =
            [0, 0, 0, 1] + Self.prefix(temporalID: 1, refIdc: 2) + [0, 0, 1] + Self.slice(refIdc: 2, sliceType: 0)
        var count = 0
        stream.withUnsafeBytes { raw in NALPackaging.annexB.forEachNALUnit(in: raw) { _ in count += 1 } }
        #expect(count == 2)
        let f = stream.withUnsafeBytes { FrameStructure(packet: $0, packaging: .annexB) }
        #expect(f.temporalID == 1 && f.nalRefIdc == 2 && f.sliceType == .p && !f.isDroppable)
    }

    @Test func nonReferenceBFrameWithoutLayersIsDroppable() {
        let packet = Self.lengthPrefixed([Self.slice(refIdc: 0, sliceType: 6)])
        let f = packet.withUnsafeBytes { FrameStructure(packet: $0, packaging: .lengthPrefixed(lengthSize: 4)) }
        #expect(f.sliceType == .b && f.isDroppable && f.temporalID == nil)
    }

    @Test func packetWithoutSlicesIsNotDroppable() {
        let sei: [UInt8] = [0x06, 0x05, 0x01, 0x00, 0x80]
        let f = Self.lengthPrefixed([sei]).withUnsafeBytes {
            FrameStructure(packet: $0, packaging: .lengthPrefixed(lengthSize: 4))
        }
        #expect(f.sliceCount == 0 && !f.isDroppable)
    }

    @Test func readsPackagingFromExtradata() {
        #expect(NALPackaging(extradata: [1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1, 0]) == .lengthPrefixed(lengthSize: 4))
        #expect(NALPackaging(extradata: [1, 0x42, 0xC0, 0x1E, 0xFD, 0xE1, 0]) == .lengthPrefixed(lengthSize: 2))
        #expect(NALPackaging(extradata: [0, 0, 0, 1, 0x67]) == .annexB)
        #expect(NALPackaging(extradata: []) == .annexB)
    }
}
