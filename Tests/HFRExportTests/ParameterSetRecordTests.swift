import Testing

@testable import HFRExport

/// The layout checks of H.264 and HEVC decoder configuration records, on records built here.
@Suite struct ParameterSetRecordTests {
    /// avcC: version 1, profile 100, level 31, 4-byte lengths, one SPS (type 7), one PPS (type 8).
    static let avcC: [UInt8] = [1, 100, 0, 31, 0xFF, 0xE1, 0, 4, 0x67, 100, 0, 31, 1, 0, 2, 0x68, 0xEE]

    @Test func wellFormedAVCCPasses() {
        #expect(ParameterSetRecord.isWellFormedAVCC(Self.avcC))
        #expect(ParameterSetRecord.isRecordOrAnnexB(Self.avcC))
    }

    @Test(arguments: [
        (0, UInt8(0)),  // version 0
        (5, 0xE0),  // no SPS
        (6, 0xFF),  // SPS length past the record
        (8, 0),  // SPS of NAL type 0
        (12, 0),  // no PPS
        (15, 0x65),  // PPS slot holding a slice
    ])
    func damagedAVCCFails(offset: Int, value: UInt8) {
        var record = Self.avcC
        record[offset] = value
        #expect(!ParameterSetRecord.isWellFormedAVCC(record))
    }

    @Test func annexBAndEmptyExtradataAreNotRecords() {
        #expect(ParameterSetRecord.isRecordOrAnnexB([]))
        #expect(ParameterSetRecord.isRecordOrAnnexB([0, 0, 0, 1, 0x67]))
        #expect(ParameterSetRecord.isRecordOrAnnexB([0, 0, 1, 0x67]))
        #expect(!ParameterSetRecord.isRecordOrAnnexB([0, 100, 0, 31]))
    }

    /// hvcC: 22 bytes of profile and format after the version, then VPS, SPS and PPS arrays.
    @Test func hvcCArraysAreChecked() {
        let head: [UInt8] = [1] + [UInt8](repeating: 0, count: 21) + [3]
        let arrays: [UInt8] = [
            0x20, 0, 1, 0, 2, 0x40, 1,  // VPS
            0x21, 0, 1, 0, 2, 0x42, 1,  // SPS
            0x22, 0, 1, 0, 2, 0x44, 1,  // PPS
        ]
        #expect(ParameterSetRecord.isWellFormedHVCC(head + arrays))
        var emptyArrays = head + arrays
        emptyArrays.replaceSubrange(23..., with: [UInt8](repeating: 0, count: arrays.count))
        #expect(!ParameterSetRecord.isWellFormedHVCC(emptyArrays))
        var wrongType = head + arrays
        wrongType[28] = 0x02  // a slice NAL unit in the VPS array
        #expect(!ParameterSetRecord.isWellFormedHVCC(wrongType))
        #expect(!ParameterSetRecord.isWellFormedHVCC([0] + head.dropFirst() + arrays))
    }
}
