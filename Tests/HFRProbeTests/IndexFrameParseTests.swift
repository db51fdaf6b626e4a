import Foundation
import HFRMedia
import HFRTestSupport
import Testing

@testable import HFRProbe

/// The two-core parse of a batch of frames gives what parsing them one after another gives, also
/// where the second half cannot be started from a guess: an H.264 prefix NAL unit carried past a
/// packet without slices across the halves' boundary.
@Suite struct IndexFrameParseTests {
    /// OpenH264's layout: each packet's slice, then the prefix NAL unit of the next packet's slice.
    static func packet(_ k: Int, sliceless: Bool) -> [UInt8] {
        let next = UInt8((k + 1) % 4 == 0 ? 0 : (k + 1) % 2 == 1 ? 2 : 1)
        let sei: [UInt8] = [0x06, 0x05, 0x01, 0x00, 0x80]
        let body = sliceless ? [sei] : [BitstreamTests.slice(refIdc: k % 2 == 0 ? 2 : 0, sliceType: 5)]
        return BitstreamTests.lengthPrefixed(body + [BitstreamTests.prefix(temporalID: next, refIdc: 0)])
    }

    @Test(arguments: [3000, 1200, 700])
    func batchParseEqualsTheSequentialOne(count: Int) throws {
        let half = count / 2
        // A packet without slices just before the second half, and others spread through both.
        let sliceless: Set<Int> = [half - 1, half - 2, 17, count - 3]
        var bytes: [UInt8] = []
        var entries: [IndexEntry] = []
        for k in 0..<count {
            let data = Self.packet(k, sliceless: sliceless.contains(k))
            entries.append(
                IndexEntry(
                    timestamp: Int64(k) * 128, position: Int64(bytes.count), size: data.count, isKeyframe: k == 0,
                    isDiscarded: false))
            bytes += data
        }
        // An entry past the end of the file has no structure.
        entries.append(
            IndexEntry(
                timestamp: Int64(count) * 128, position: Int64(bytes.count), size: 10, isKeyframe: false,
                isDiscarded: false))
        let dir = try TemporaryDirectory()
        let path = dir.path("frames.h264")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path)
        let start = try #require(FrameParser(codecName: "h264", extradata: [1, 0x42, 0, 0x1E, 0xFF, 0xE0, 0]))

        var sequential = start
        let expected: [FrameStructure?] = entries.map { entry in
            guard entry.position + Int64(entry.size) <= Int64(bytes.count) else { return nil }
            return bytes.withUnsafeBytes { all in
                sequential.parse(
                    UnsafeRawBufferPointer(rebasing: all[Int(entry.position)..<Int(entry.position) + entry.size]))
            }
        }
        var parse = IndexFrameParse(file: file, parser: start)
        let got = parse.structures(of: entries)
        #expect(got.count == expected.count)
        let firstDifference = got.indices.first { $0 < expected.count && got[$0] != expected[$0] }
        #expect(firstDifference == nil, "frame \(firstDifference ?? -1) differs")
        // The packet after the sliceless ones takes the temporal id carried through them.
        #expect(got[half]?.temporalID == expected[half - 3]?.trailingTemporalID)
        #expect(got[half]?.temporalID != nil)
        #expect(got.last! == nil)
    }
}
