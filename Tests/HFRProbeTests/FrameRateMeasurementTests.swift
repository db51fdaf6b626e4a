import HFRMedia
import Testing

@testable import HFRProbe

/// The one rate measurement `hfr probe` and export share (issue 41 items 8–10, 13), from the
/// presentation times of the shapes other tools write.
@Suite struct FrameRateMeasurementTests {
    /// Measures `times` (decode order) in `timeBase`, counting from `shownFrom`.
    static func rate(
        _ times: [Int64], timeBase: Rational, shownFrom: Int64? = nil, declared: Rational? = nil
    ) -> Rational? {
        var tally = StreamTally.video(shownFrom: shownFrom)
        for t in times { tally.add(pts: t, duration: 0, size: 1) }
        return tally.measuredFrameRate(timeBase: timeBase, declared: declared)
    }

    /// 120 fps in 1/15360 (128 ticks a frame), B-frames: I P B B P B B …, presented in order.
    static func reordered(frames: Int, from first: Int64 = 0) -> [Int64] {
        var times: [Int64] = []
        var i = 0
        while i < frames {
            times.append(first + Int64(i) * 128)
            if i + 3 < frames {
                times += [first + Int64(i + 3) * 128, first + Int64(i + 1) * 128, first + Int64(i + 2) * 128]
                i += 4
            } else {
                i += 1
            }
        }
        return times
    }

    /// A trim by stream copy: 36 frames hidden before the edit (negative times), 146 shown, the last
    /// reference frame without the two B-frames before it. Was 7240/61 (118.689).
    @Test func trimmedClipIsMeasuredFromTheFramesTheEditShows() {
        let shown = Self.reordered(frames: 145).filter { $0 != 144 * 128 } + [147 * 128]
        let hidden = Self.reordered(frames: 36, from: -36 * 128)
        let times = hidden + shown
        #expect(Self.rate(times, timeBase: Rational(1, 15360), shownFrom: 0) == Rational(120))
    }

    /// A first frame shown 229 ticks early (fragmented MP4 without a base time), then 240 fps.
    /// Was 490496/2059 (238.220).
    @Test func firstFrameShownEarlyCountsOnePeriod() {
        var times: [Int64] = [128]
        times += Self.reordered(frames: 479).map { 421 + $0 / 2 }
        #expect(Self.rate(times, timeBase: Rational(1, 15360)) == Rational(240))
        var spacing = GapRange()
        for t in times { spacing.keep(t) }
        #expect(spacing.leadingOffsetTicks == 229)
        #expect(!spacing.isVariable)
    }

    /// AVI: the first frame, four empty index entries, then 239 frames, at 120 fps (1/120 ticks).
    /// Was 9560/81 (118.025).
    @Test func emptyEntriesAfterTheFirstFrameAreNoFrames() {
        let times: [Int64] = [0] + (5..<244).map { Int64($0) }
        #expect(Self.rate(times, timeBase: Rational(1, 120)) == Rational(120))
    }

    /// Milliseconds from a timestamps file, every tenth step doubled: the frames' period, 120,
    /// though the container guesses 24961/208 (120.005) and the average is 109.
    @Test func millisecondGapsGiveTheExactPeriod() {
        var step = 0
        var times: [Int64] = []
        for frame in 0..<240 {
            times.append(Int64((Double(step) * 1000 / 120).rounded()))
            step += frame % 10 == 5 ? 2 : 1
        }
        #expect(
            Self.rate(times, timeBase: Rational(1, 1000), declared: Rational(24961, 208)) == Rational(120))
    }

    /// Damaged times (2⁶³ apart) neither trap nor measure.
    @Test func damagedTimesGiveNoRate() {
        #expect(Self.rate([Int64.min + 1, 0, 1, Int64.max], timeBase: Rational(1, 1000)) == nil)
        #expect(Self.rate([0, Int64.max, 1, Int64.min], timeBase: Rational(1, 1000)) == nil)
    }
}
