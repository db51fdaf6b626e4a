import HFRMedia
import Testing

/// The tick a Matroska output counts in, for its video's frame rate.
@Suite struct MatroskaTickTests {
    /// Frame rate, and the tick's nanoseconds.
    static let ticks: [(Rational, Int64)] = [
        // A millisecond times every frame exactly: FFmpeg's own scale stays.
        (Rational(25), 1_000_000), (Rational(50), 1_000_000), (Rational(100), 1_000_000),
        (Rational(1000), 1_000_000), (Rational(1), 1_000_000), (Rational(1, 2), 1_000_000),
        // A coarser power of ten than the finest that times every frame exactly.
        (Rational(2000), 100_000), (Rational(10_000), 100_000), (Rational(4000), 10_000),
        // Not exact in any power of ten: 1000 ticks a frame or more, not finer than 10 µs.
        (Rational(30), 10_000), (Rational(30000, 1001), 10_000), (Rational(24000, 1001), 10_000),
        (Rational(48), 10_000), (Rational(60), 10_000), (Rational(120), 10_000), (Rational(240), 10_000),
        (Rational(960), 10_000), (Rational(3000), 10_000),
    ]

    @Test(arguments: ticks)
    func tickForFrameRate(rate: Rational, nanoseconds: Int64) {
        let tick = MatroskaTick(frameDuration: rate.reciprocal)
        #expect(tick.nanoseconds == nanoseconds, "\(rate) fps")
        #expect(tick.timeBase == Rational(nanoseconds, 1_000_000_000))
    }

    /// No frame duration (no rate declared): FFmpeg's millisecond.
    @Test func noFrameDurationKeepsTheMillisecond() {
        #expect(MatroskaTick(frameDuration: Rational(0)) == .millisecond)
    }
}
