import Foundation
import HFRProbe
import HFRTestSupport
import Testing

/// Samsung's `smta` box and SEF trailer, parsed from buffers built from the documented layout.
@Suite struct SEFParsingTests {
    typealias Segment = SamsungSlowMotion.Segment

    /// The trailer segments of `bytes` taken as a whole file.
    static func segments(_ bytes: [UInt8]) throws(SamsungSlowMotion.Malformed) -> [Segment]? {
        try SamsungSlowMotion.trailerSegments(length: Int64(bytes.count)) { offset, count in
            guard offset >= 0, Int(offset) + count <= bytes.count else { return nil }
            return Array(bytes[Int(offset)..<(Int(offset) + count)])
        }
    }

    /// Some media bytes, then the trailer: offsets count back from "SEFH", not from the file's start.
    static let media = [UInt8](repeating: 0xAB, count: 1000)

    @Test func readsSlowMotionDataAfterOtherBlocks() throws {
        let bgm = SEFFile.block(type: 0x0B01, name: "Super_SlowMotion_BGM", data: "music")
        let data = SEFFile.slowMotionData([
            .init(start: 1200, end: 2400, mode: 3), .init(start: 5000, end: 5600, mode: 4),
        ])
        let file = Self.media + SEFFile.trailer([(0x0B01, bgm), (0x0890, data)])
        #expect(
            try Self.segments(file)
                == [Segment(start: 1200, end: 2400, speedDivisor: 4), Segment(start: 5000, end: 5600, speedDivisor: 8)])
    }

    /// The boxes end where the first data block starts.
    @Test func trailerStartsAtTheFirstBlock() throws {
        let dir = try TemporaryDirectory()
        let bgm = SEFFile.block(type: 0x0B01, name: "Super_SlowMotion_BGM", data: "music")
        let data = SEFFile.slowMotionData([.init(start: 0, end: 100, mode: 2)])
        let path = dir.path("sef.bin")
        try Data(Self.media + SEFFile.trailer([(0x0B01, bgm), (0x0890, data)])).write(to: URL(fileURLWithPath: path))
        #expect(SamsungSlowMotion.trailerStart(path: path) == Int64(Self.media.count))
        try Data(Self.media).write(to: URL(fileURLWithPath: path))
        #expect(SamsungSlowMotion.trailerStart(path: path) == nil)
    }

    @Test func filesWithoutTheTrailerOrTheBlockHaveNone() throws {
        #expect(try Self.segments(Self.media) == nil)
        let other = SEFFile.block(type: 0x0B04, name: "Super_SlowMotion_Deflickering_On", data: "1")
        #expect(try Self.segments(Self.media + SEFFile.trailer([(0x0B04, other)])) == nil)
    }

    @Test func brokenTrailersAreMalformed() {
        // A table length that points before the file, and a reference outside it.
        #expect(throws: SamsungSlowMotion.Malformed.self) {
            try Self.segments(Self.media + [0xFF, 0xFF, 0, 0] + Array("SEFT".utf8))
        }
        var trailer = SEFFile.trailer([(0x0890, SEFFile.slowMotionData([.init(start: 0, end: 10, mode: 2)]))])
        trailer[trailer.count - 8 - 12 + 4] = 0xFF  // the reference's offset, low byte
        trailer[trailer.count - 8 - 12 + 6] = 0xFF
        #expect(throws: SamsungSlowMotion.Malformed.self) { try Self.segments(Self.media + trailer) }
    }

    @Test(arguments: ["1000:900:3", "1000:2000", "a:b:c", "0:100:3*50:200:3", "0:100:0"])
    func badSegmentTextIsMalformed(text: String) {
        #expect(throws: SamsungSlowMotion.Malformed.self) { try SamsungSlowMotion.segments(text) }
    }

    @Test func speedModeIsAPowerOfTwo() throws {
        #expect(try SamsungSlowMotion.segments("0:100:1*100:200:2*200:300:5").map(\.speedDivisor) == [1, 2, 16])
    }

    @Test func smtaGivesRateAndLayersByMode() {
        let (rate120, layers) = SamsungSlowMotion.samsungMetadata(SEFFile.smta(mode: 13, layers: 3)) ?? (nil, nil)
        #expect(rate120 == 120 && layers == 3)
        #expect(SamsungSlowMotion.samsungMetadata(SEFFile.smta(mode: 12, layers: 4))?.captureFrameRate == 240)
        #expect(
            SamsungSlowMotion.samsungMetadata(SEFFile.smta(mode: 21, layers: 3, srfr: 480))?.captureFrameRate == 480)
        // A mode that does not say the rate (0: normal recording), and no saut at all.
        let normal = SamsungSlowMotion.samsungMetadata(SEFFile.smta(mode: 0, layers: 1))
        #expect(normal != nil && normal?.captureFrameRate == nil && normal?.temporalLayerCount == 1)
        #expect(SamsungSlowMotion.samsungMetadata([0, 0, 0, 12] + Array("smta".utf8) + [0, 0, 0, 0]) == nil)
    }
}
