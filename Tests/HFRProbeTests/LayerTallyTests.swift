import HFRMedia
import Testing

@testable import HFRProbe

/// Counting layers and reachable rates on synthetic frame sequences with known answers.
@Suite struct LayerTallyTests {
    func frame(_ i: Int, pts: Int64, tid: Int?, droppable: Bool) -> ProbedFrame {
        let bytes = BitstreamTests.lengthPrefixed(
            (tid.map { [BitstreamTests.prefix(temporalID: UInt8($0), refIdc: droppable ? 0 : 2)] } ?? [])
                + [BitstreamTests.slice(refIdc: droppable ? 0 : 2, sliceType: 5)])
        let s = bytes.withUnsafeBytes { FrameStructure(packet: $0, packaging: .lengthPrefixed(lengthSize: 4)) }
        return ProbedFrame(
            index: i, pts: pts, dts: pts, timeBase: Rational(1, 90000), size: bytes.count, isKeyframe: false,
            structure: s,
            isContainerDisposable: droppable)
    }

    @Test func threeLayerPatternGivesHalfQuarterQuarterAndPowerOfTwoRates() {
        var tally = LayerTally()
        let pattern = [0, 2, 1, 2]
        for i in 0..<240 {
            let tid = pattern[i % 4]
            tally.add(frame(i, pts: Int64(i) * 128, tid: tid, droppable: tid == 2))
        }
        let layers = tally.layers()
        #expect(layers.map(\.frameCount) == [60, 60, 120])
        #expect(layers.map(\.droppableCount) == [0, 0, 120])
        #expect(tally.signalling == .svcTemporalID)
        let rates = tally.reachableRates(captureRate: Rational(120))
        #expect(rates.map(\.rate) == [Rational(120), Rational(60), Rational(30)])
        #expect(rates.map(\.isUniform) == [true, true, true])
        #expect(tally.markedButReferencedCount == 0 && tally.droppableButUnmarkedCount == 0)
    }

    @Test func unevenKeptFramesAreNotUniform() {
        var tally = LayerTally()
        // Reference frames at 0, 1, 3 (gaps 1 and 2): dropping the rest leaves an uneven rate.
        for (i, droppable) in [false, false, true, false].enumerated() {
            tally.add(frame(i, pts: Int64(i), tid: nil, droppable: droppable))
        }
        let rates = tally.reachableRates(captureRate: Rational(4))
        #expect(rates.map(\.description) == ["all frames", "reference frames"])
        #expect(rates.map(\.isUniform) == [true, false])
        #expect(rates[1].rate == Rational(3))
    }

    @Test func uniformityHoldsForFramesOutOfPresentationOrder() {
        var tally = LayerTally()
        // Decode order I P B B (pts 0 3 1 2): all four frames are evenly spaced in presentation.
        for (i, (pts, droppable)) in [(0, false), (3, false), (1, true), (2, true)].enumerated() {
            tally.add(frame(i, pts: Int64(pts), tid: nil, droppable: droppable))
        }
        let rates = tally.reachableRates(captureRate: Rational(30))
        #expect(rates[0].isUniform)
        #expect(rates[1].keptFrames == 2 && rates[1].isUniform && rates[1].rate == Rational(15))
    }

    /// Damaged times further apart than Int64 holds (a fragment's decode time of 2⁶³): no grid, no
    /// trap, and no rate or duration for the stream (its jump is refused by `TimestampJump`).
    @Test func timesFurtherApartThanInt64HoldsAreNoGrid() {
        var tally = LayerTally()
        var stream = StreamTally()
        for (i, pts) in [Int64.min + 1, 0, 1, Int64.max].enumerated() {
            tally.add(frame(i, pts: pts, tid: nil, droppable: false))
            stream.add(pts: pts, duration: 100, size: 1, skippedTicks: 10)
        }
        #expect(tally.reachableRates(captureRate: Rational(30)).allSatisfy { !$0.isUniform })
        #expect(stream.measuredFrameRate(timeBase: Rational(1, 1000)) == nil)
        #expect(stream.measuredDuration(timeBase: Rational(1, 1000)) == nil)
    }
}
