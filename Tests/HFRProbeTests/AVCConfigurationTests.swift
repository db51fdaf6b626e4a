import Testing

@testable import HFRProbe

/// avcC records and Annex B parameter sets, on bytes whose layout is written out here.
@Suite struct AVCConfigurationTests {
    /// An hfr recording's avcC (640x360 Constrained Baseline, as ffprobe prints it): one 15-byte
    /// SPS, one 4-byte PPS, 4-byte lengths.
    static let avcC: [UInt8] = [
        0x01, 0x42, 0xC0, 0x1F, 0xFF, 0xE1, 0x00, 0x0F, 0x67, 0x42, 0xC0, 0x1F, 0x8C, 0x8D, 0x70, 0x50, 0x17,
        0xFC, 0xB0, 0x0F, 0x08, 0x84, 0x6E, 0x01, 0x00, 0x04, 0x68, 0xCE, 0x3C, 0x80,
    ]
    static let sps = Array(avcC[8..<23])
    static let pps = Array(avcC[26..<30])

    @Test func readsTheParameterSetsOfAnAVCCRecord() throws {
        let config = try #require(AVCConfiguration(avcC: Self.avcC))
        #expect(config.lengthSize == 4)
        #expect(config.sequenceParameterSets == [Self.sps])
        #expect(config.pictureParameterSets == [Self.pps])
    }

    @Test func annexBWithTheSameSetsMatches() throws {
        let annexB = [0, 0, 0, 1] + Self.sps + [0, 0, 1] + Self.pps
        let config = try #require(AVCConfiguration(avcC: Self.avcC))
        #expect(AVCConfiguration(annexB: annexB).hasSameParameterSets(as: config))
        var other = Self.pps
        other[3] ^= 1
        let changed = AVCConfiguration(annexB: [0, 0, 0, 1] + Self.sps + [0, 0, 1] + other)
        #expect(!changed.hasSameParameterSets(as: config))
    }

    @Test(arguments: [0, 7, 10, 24, 29])
    func truncatedRecordsAreNotRead(length: Int) {
        #expect(AVCConfiguration(avcC: Array(Self.avcC.prefix(length))) == nil)
    }

    @Test func annexBExtradataIsNotAnAVCCRecord() {
        #expect(AVCConfiguration(avcC: [0, 0, 0, 1] + Self.sps) == nil)
    }

    @Test func startCodesBecomeLengthFields() throws {
        let annexB: [UInt8] = [0, 0, 0, 1, 0x65, 0xAA, 0xBB, 0, 0, 1, 0x0E, 0x01]
        let four = annexB.withUnsafeBytes { AVCConfiguration.lengthPrefixed(annexB: $0, lengthSize: 4) }
        #expect(four == [0, 0, 0, 3, 0x65, 0xAA, 0xBB, 0, 0, 0, 2, 0x0E, 0x01])
        let one = annexB.withUnsafeBytes { AVCConfiguration.lengthPrefixed(annexB: $0, lengthSize: 1) }
        #expect(one == [3, 0x65, 0xAA, 0xBB, 2, 0x0E, 0x01])
        let long = [0, 0, 1] + [UInt8](repeating: 0x41, count: 300)
        #expect(long.withUnsafeBytes { AVCConfiguration.lengthPrefixed(annexB: $0, lengthSize: 1) } == nil)
    }
}
