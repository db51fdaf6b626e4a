import Testing

@testable import HFRProbe

/// `FrameParser` on hand-made packets: HEVC NAL headers and H.264 prefix NAL units carried from the
/// end of one packet to the slice of the next.
@Suite struct FrameParserTests {
    /// An HEVC NAL unit of `type` in sub-layer `temporalID` with a one-byte payload.
    static func hevc(type: UInt8, temporalID: UInt8, payload: UInt8 = 0xAF) -> [UInt8] {
        [type << 1, temporalID + 1, payload]
    }

    /// An hvcC record with 4-byte NAL lengths holding one SPS whose sps_max_sub_layers_minus1 is `maxID`.
    static func hvcC(maxTemporalID maxID: UInt8) -> [UInt8] {
        let sps: [UInt8] = [33 << 1, 1, maxID << 1, 0x01]
        var record = [UInt8](repeating: 0, count: 23)
        record[0] = 1
        record[21] = 0x0F  // numTemporalLayers 1, lengthSizeMinusOne 3
        record[22] = 1
        return record + [0x80 | 33, 0, 1, 0, UInt8(sps.count)] + sps
    }

    @Test func readsHEVCTemporalIDAndSubLayerNonReferenceTypes() throws {
        var parser = try #require(FrameParser(codecName: "hevc", extradata: Self.hvcC(maxTemporalID: 1)))
        #expect(parser.packaging == .lengthPrefixed(lengthSize: 4))
        let frames = [
            Self.hevc(type: 19, temporalID: 0),  // IDR_W_RADL
            Self.hevc(type: 1, temporalID: 0),  // TRAIL_R
            Self.hevc(type: 2, temporalID: 1),  // TSA_N
            Self.hevc(type: 0, temporalID: 0),  // TRAIL_N in sub-layer 0: sub-layer 1 may reference it
            Self.hevc(type: 3, temporalID: 1),  // TSA_R
        ].map { nal in BitstreamTests.lengthPrefixed([nal]).withUnsafeBytes { parser.parse($0) } }
        #expect(frames.map(\.temporalID) == [0, 0, 1, 0, 1])
        #expect(frames.map(\.isIDR) == [true, false, false, false, false])
        #expect(frames.map(\.nalRefIdc) == [1, 1, 0, 0, 1])
        #expect(frames.map(\.isDroppable) == [false, false, true, false, false])
        #expect(frames.allSatisfy { $0.sliceCount == 1 && $0.sliceType == nil })
    }

    @Test func hevcWithoutKnownSubLayerCountDropsNothing() throws {
        var parser = try #require(FrameParser(codecName: "hevc", extradata: []))
        #expect(parser.packaging == .annexB)
        let f = ([0, 0, 1] + Self.hevc(type: 2, temporalID: 1)).withUnsafeBytes { parser.parse($0) }
        #expect(f.temporalID == 1 && f.nalRefIdc == 0 && !f.isDroppable)
    }

    @Test func otherCodecsAreNotParsed() {
        #expect(FrameParser(codecName: "av1", extradata: []) == nil)
        #expect(FrameParser(codecName: "prores", extradata: []) == nil)
    }

    /// FFmpeg's stream copy of a raw stream: each packet ends with the next one's prefix NAL unit.
    @Test func prefixAtTheEndOfAPacketBelongsToTheNext() throws {
        var parser = try #require(FrameParser(codecName: "h264", extradata: [1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1, 0]))
        let first = BitstreamTests.lengthPrefixed([
            BitstreamTests.prefix(temporalID: 0, refIdc: 3), BitstreamTests.slice(refIdc: 3, idr: true, sliceType: 7),
            BitstreamTests.prefix(temporalID: 2, refIdc: 0),
        ])
        let second = BitstreamTests.lengthPrefixed([
            BitstreamTests.slice(refIdc: 0, sliceType: 5), BitstreamTests.prefix(temporalID: 1, refIdc: 2),
        ])
        let third = BitstreamTests.lengthPrefixed([BitstreamTests.slice(refIdc: 2, sliceType: 5)])
        let a = first.withUnsafeBytes { parser.parse($0) }
        let b = second.withUnsafeBytes { parser.parse($0) }
        let c = third.withUnsafeBytes { parser.parse($0) }
        #expect(a.temporalID == 0 && a.trailingTemporalID == 2)
        // The trailing prefix with its 4-byte length: the last 8 bytes.
        #expect(a.trailingPrefix == first.count - 8..<first.count)
        #expect(b.temporalID == 2 && b.isDroppable && b.trailingTemporalID == 1)
        #expect(c.temporalID == 1 && c.trailingPrefix == nil && !c.isDroppable)
    }

    @Test func prefixBeforeItsSliceIsNotTrailing() throws {
        var parser = try #require(FrameParser(codecName: "h264", extradata: [1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1, 0]))
        let packet = BitstreamTests.lengthPrefixed([
            BitstreamTests.prefix(temporalID: 2, refIdc: 0), BitstreamTests.slice(refIdc: 0, sliceType: 5),
        ])
        let f = packet.withUnsafeBytes { parser.parse($0) }
        #expect(f.temporalID == 2 && f.trailingPrefix == nil && f.trailingTemporalID == nil)
    }
}
