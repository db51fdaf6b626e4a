import HFRMedia
import Testing

@testable import HFRPipeline

/// The trigger board's bookkeeping: requests stamped with the next frame's time, detectors that
/// fire once per event and re-arm, the counts the status shows.
@Suite struct TriggerBoardTests {
    static func board(_ kinds: Set<TriggerKind>, post: Rational = Rational(1)) -> TriggerBoard {
        TriggerBoard(
            settings: TriggerSettings(
                preTrigger: Rational(1), postTrigger: post, kinds: kinds, names: ClipNames(template: "clip.mp4")))
    }

    @Test func aRequestCountsOnlyForTheRecordingsKinds() {
        let board = Self.board([.key])
        #expect(!board.request(.http))
        #expect(board.request(.key))
        board.stamp(at: Rational(2))
        #expect(board.take() == [TriggerEvent(time: Rational(2), kind: .key)])
        #expect(board.take() == [])
        #expect(board.fired == 1)
    }

    @Test func requestsTakeTheTimeOfTheNextFrameStamped() {
        let board = Self.board([.key, .http])
        board.stamp(at: Rational(1, 30))
        #expect(board.take() == [])
        board.request(.http)
        board.request(.key)
        board.stamp(at: Rational(2, 30))
        board.stamp(at: Rational(3, 30))
        #expect(
            board.take() == [
                TriggerEvent(time: Rational(2, 30), kind: .http), TriggerEvent(time: Rational(2, 30), kind: .key),
            ])
        #expect(board.fired == 2)
    }

    /// One event above the threshold is one trigger: the detector fires again only after its measure
    /// fell below and `rearmAfter` (the post-trigger time, at least half a second) has passed.
    @Test func aDetectorFiresOncePerEventAndRearms() {
        let board = Self.board([.motion], post: Rational(1))
        let measures: [(Rational, Bool)] = [
            (Rational(0), true), (Rational(1, 10), true),  // one event: fires once
            (Rational(5, 10), false), (Rational(8, 10), true),  // below, then above too soon
            (Rational(12, 10), true),  // a second after the first: fires
            (Rational(25, 10), true),  // never below since: quiet
            (Rational(26, 10), false), (Rational(27, 10), true),  // re-armed: fires
        ]
        for (time, isAbove) in measures { board.detect(.motion, at: time, isAbove: isAbove) }
        #expect(board.take().map(\.time) == [Rational(0), Rational(12, 10), Rational(27, 10)])
    }

    @Test func detectorsRearmEachOnItsOwn() {
        let board = Self.board([.motion, .audio], post: Rational(1, 4))
        board.detect(.motion, at: Rational(0), isAbove: true)
        board.detect(.audio, at: Rational(1, 10), isAbove: true)
        board.detect(.motion, at: Rational(2, 10), isAbove: false)
        // Half a second at least, though the post-trigger time is a quarter.
        board.detect(.motion, at: Rational(4, 10), isAbove: true)
        board.detect(.motion, at: Rational(6, 10), isAbove: true)
        board.detect(.audio, at: Rational(7, 10), isAbove: true)
        #expect(
            board.take() == [
                TriggerEvent(time: Rational(0), kind: .motion), TriggerEvent(time: Rational(1, 10), kind: .audio),
                TriggerEvent(time: Rational(6, 10), kind: .motion),
            ])
        #expect(board.fired == 3)
    }

    @Test func theCountsTheStatusShows() {
        let board = Self.board([.motion])
        board.noteClip()
        board.noteClip()
        board.noteRingBytes(4096)
        board.motionScore = 12.5
        #expect(board.clips == 2)
        #expect(board.rawRingPeakBytes == 4096)
        #expect(board.motionScore == 12.5)
        #expect(board.fired == 0)
    }
}
