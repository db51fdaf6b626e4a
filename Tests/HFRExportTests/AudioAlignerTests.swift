import HFRMedia
import Testing

@testable import HFRExport

/// Putting decoded audio on the export's timeline: silence in bounded blocks, and damaged start
/// times that lie further away than Int64 counts.
@Suite struct AudioAlignerTests {
    static func chunk(_ count: Int) -> AudioChunk { AudioChunk(planes: [[Float](repeating: 1, count: count)]) }

    /// A track that ends early is filled in blocks, not with one chunk the size of the timeline.
    @Test func remainderComesInBlocks() {
        var aligner = AudioAligner(sampleRate: 48000, channels: 1, start: Rational(0), total: 200_000)
        #expect(aligner.align(Self.chunk(1000), at: Rational(0)).count == 1000)
        var counts: [Int] = []
        while case let silence = aligner.remainder(), !silence.isEmpty { counts.append(silence.count) }
        #expect(counts == [65536, 65536, 65536, 2392])
        #expect(aligner.placed == 200_000)
    }

    /// A first frame 2⁶³ samples before the start: all of it skipped, the timeline silence.
    @Test func aStartFurtherBackThanInt64IsSkipped() {
        var aligner = AudioAligner(sampleRate: 48000, channels: 1, start: Rational(0), total: 1000)
        #expect(aligner.align(Self.chunk(1024), at: Rational(Int64.min + 1)).isEmpty)
        #expect(aligner.align(Self.chunk(1024), at: nil).isEmpty)
        #expect(aligner.remainder().count == 1000)
        #expect(aligner.remainder().isEmpty)
    }
}
