import HFRMedia
import Testing

@testable import HFRExport

/// The retimer's pieces cut at onsets: every onset inside a stretched piece starts one, the output
/// spans still add up to the same samples, real-time pieces stay whole.
@Suite struct AudioPieceTests {
    typealias Piece = AudioPiece

    /// Output sample of source sample `s` on a map that is 4× slower from 0 and real time from 48000.
    static func output(_ s: Int64) -> Int64 { s < 48000 ? 4 * s : 192_000 + (s - 48000) }

    static let pieces = [
        Piece(sourceStart: 0, sourceEnd: 48000, outputStart: 0, outputCount: 192_000, speed: Rational(1, 4)),
        Piece(sourceStart: 48000, sourceEnd: 96000, outputStart: 192_000, outputCount: 48000, speed: Rational(1)),
    ]

    @Test func onsetsCutStretchedPiecesAndKeepTheOutputSpans() {
        let split = AudioPiece.split(
            Self.pieces, at: [5, 12000, 30001, 60000], margin: 12, outputSample: Self.output)
        #expect(split.map(\.sourceStart) == [0, 12000, 30001, 48000])
        #expect(split.map(\.sourceEnd) == [12000, 30001, 48000, 96000])
        #expect(split.map(\.outputStart) == [0, 48000, 120_004, 192_000])
        #expect(split.map(\.outputCount) == [48000, 72004, 71996, 48000])
        #expect(split.map(\.outputCount).reduce(0, +) == Self.pieces.map(\.outputCount).reduce(0, +))
    }
}
