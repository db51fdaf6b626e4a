import HFRMedia
import Testing

/// The display matrices `--rotate` writes, checked against FFmpeg's own reading of them
/// (`av_display_rotation_get`, through `StreamPresentation.rotation`).
@Suite struct DisplayRotationTests {
    static let one: Int32 = 1 << 16

    /// A phone held upright writes `0 1 0 / -1 0 0 / 0 0 1` (16.16, the last column 2.30).
    @Test func aQuarterTurnIsThePhonePortraitMatrix() {
        #expect(DisplayRotation.matrix(clockwise: 90) == [0, Self.one, 0, -Self.one, 0, 0, 0, 0, 1 << 30])
        #expect(DisplayRotation.matrix(clockwise: 0) == [Self.one, 0, 0, 0, Self.one, 0, 0, 0, 1 << 30])
        for bad in [45, -90, 360, 1] { #expect(DisplayRotation.matrix(clockwise: bad) == nil) }
    }

    /// FFmpeg counts counter-clockwise: 90 → −90, 180 → −180, 270 → 90 (what ffprobe prints).
    @Test(arguments: [(90, -90.0), (180, -180.0), (270, 90.0)])
    func ffmpegReadsTheOppositeSign(clockwise: Int, ffmpeg: Double) {
        let p = StreamPresentation().rotated(clockwise: clockwise)
        #expect(p.rotation == ffmpeg)
        #expect(p.clockwiseRotation == clockwise)
        #expect(p.displayMatrix == DisplayRotation.matrix(clockwise: clockwise))
    }

    /// Replacing keeps one matrix; 0 removes it.
    @Test func rotatingReplacesOrRemoves() {
        let turned = StreamPresentation().rotated(clockwise: 90).rotated(clockwise: 270)
        #expect(turned.sideData.count == 1 && turned.clockwiseRotation == 270)
        let cleared = turned.rotated(clockwise: 0)
        #expect(cleared.sideData.isEmpty && cleared.displayMatrix == nil && cleared.rotation == nil)
        #expect(cleared.clockwiseRotation == 0)
    }

    /// The translation MOV stores beside the turn does not matter; a flip or a scale is no quarter turn.
    @Test func onlyQuarterTurnsAreNamed() {
        var moved = DisplayRotation.matrix(clockwise: 90)!
        moved[6] = 720 << 16
        #expect(DisplayRotation.clockwise(of: moved) == 90)
        let flipped: [Int32] = [-Self.one, 0, 0, 0, Self.one, 0, 0, 0, 1 << 30]
        #expect(DisplayRotation.clockwise(of: flipped) == nil)
        let scaled: [Int32] = [2 * Self.one, 0, 0, 0, 2 * Self.one, 0, 0, 0, 1 << 30]
        #expect(DisplayRotation.clockwise(of: scaled) == nil)
        #expect(DisplayRotation.clockwise(of: [0, 0]) == nil)
    }
}
