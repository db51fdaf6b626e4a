import HFRCapture
import HFRMedia
import Testing

@Suite struct FrameTimelineTests {
    /// 60 fps: 16 666.67 µs per frame.
    func stamp(_ frame: Int64, jitter: Int64 = 0) -> Int64 { 5_000_000 + frame * 1_000_000 / 60 + jitter }

    @Test func regularFramesFillTheGrid() {
        // No sequence numbers: the timestamps alone place the frames.
        var t = FrameTimeline(interval: Rational(1, 60))
        let jitter: [Int64] = [0, 3000, -4000, 7000, -7000, 0]
        let indices = (0..<6).map { t.at(sequence: 0, timestamp: stamp(Int64($0), jitter: jitter[$0])) }
        #expect(indices == [0, 1, 2, 3, 4, 5])
        #expect(t.dropped == 0 && t.gridGaps == 0)
    }

    @Test func heavyJitterWithSequenceNumbersIsNoDiscontinuity() {
        // Deltas seen from vivid under qemu TCG at 60 fps: 1.7 to 35 ms.
        var t = FrameTimeline(interval: Rational(1, 60))
        let deltas: [Int64] = [0, 27_975, 1723, 35_254, 6275, 16_667, 8375, 27_908]
        var time: Int64 = 1_000_000
        for (i, d) in deltas.enumerated() {
            time += d
            #expect(t.at(sequence: UInt32(i), timestamp: time) == Int64(i))
        }
        #expect(t.dropped == 0 && t.timestampDiscontinuities == 0)
    }

    @Test func withoutSequenceJitterIsAbsorbed() {
        var t = FrameTimeline(interval: Rational(1, 60))
        let jitter: [Int64] = [0, 3000, -4000, 7000, -7000, 0, 8000, -8000]
        let indices = (0..<8).map { t.at(sequence: 0, timestamp: stamp(Int64($0), jitter: jitter[$0])) }
        #expect(indices == Array(0..<8))
        #expect(t.dropped == 0)
    }

    @Test func withoutSequenceASlowClockIsFollowedNotDropped() {
        // A "60 fps" camera that really runs at 59.9 fps, for 100 s.
        var t = FrameTimeline(interval: Rational(1, 60))
        for i in 0..<6000 { _ = t.at(sequence: 0, timestamp: 1_000_000 + Int64(i) * 1_000_000_000 / 59_900) }
        #expect(t.lastIndex == 5999)
        #expect(t.dropped == 0 && t.timestampDiscontinuities == 0)
    }

    @Test func sequenceGapsAreDrops() {
        var t = FrameTimeline(interval: Rational(1, 60))
        let frames: [Int64] = [0, 1, 4, 5, 9]
        let indices = frames.map { t.at(sequence: UInt32($0), timestamp: stamp($0)) }
        #expect(indices == frames)
        #expect(t.dropped == 5 && t.sequenceGaps == 5 && t.gridGaps == 5)
    }

    @Test func wrappingSequenceIsNoDrop() {
        var t = FrameTimeline(interval: Rational(1, 60))
        let sequences: [UInt32] = [UInt32.max - 1, UInt32.max, 0, 1]
        for (i, s) in sequences.enumerated() { _ = t.at(sequence: s, timestamp: stamp(Int64(i))) }
        #expect(t.dropped == 0 && t.lastIndex == 3)
    }

    @Test func timestampThatJumpsBackFollowsTheSequence() {
        var t = FrameTimeline(interval: Rational(1, 60))
        _ = t.at(sequence: 10, timestamp: stamp(0))
        _ = t.at(sequence: 11, timestamp: stamp(1))
        // The clock wraps: the next timestamp is far below the last one.
        let wrapped = t.at(sequence: 12, timestamp: 1000)
        let next = t.at(sequence: 13, timestamp: 1000 + 16_667)
        #expect(wrapped == 2 && next == 3)
        #expect(t.dropped == 0 && t.timestampDiscontinuities == 1)
    }

    @Test func repeatedSequenceNumberGetsNoSlot() {
        var t = FrameTimeline(interval: Rational(1, 60))
        let sequences: [UInt32] = [5, 6, 6, 7, 9]
        let indices = sequences.enumerated().map { t.at(sequence: $0.element, timestamp: stamp(Int64($0.offset))) }
        #expect(indices == [0, 1, -1, 2, 4])
        #expect(t.repeats == 1 && t.dropped == 1)
    }

    @Test func withoutSequenceNumbersTimestampsCount() {
        var t = FrameTimeline(interval: Rational(1, 60))
        let frames: [Int64] = [0, 1, 3, 4]
        let indices = frames.map { t.at(sequence: 0, timestamp: stamp($0)) }
        #expect(indices == frames)
        #expect(!t.numbersFrames && t.dropped == 1)
    }
}

extension FrameTimeline {
    /// `place`, with -1 for a frame left out.
    mutating func at(sequence: UInt32, timestamp: Int64) -> Int64 {
        place(sequence: sequence, timestamp: timestamp) ?? -1
    }
}
