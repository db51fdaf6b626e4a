import HFRMedia
import Testing

@testable import HFRExport

/// Where a spliced ramp re-encodes: each run of segments a copy cannot reach, from its start to the
/// keyframe where copying can resume, decoded from the keyframe before it.
@Suite struct ReencodedSpanTests {
    static let keyframes = (0..<6).map { Rational(Int64($0)) }

    func spans(_ ramp: String, failing: [Int], end: Rational = Rational(6)) throws -> [ReencodedSpan]? {
        MixedReencode.spans(try TimeMap(parsing: ramp), failing: failing, keyframes: Self.keyframes, end: end)
    }

    @Test func aSlowSegmentRunsToTheNextKeyframe() throws {
        let s = try #require(try spans("0-1@1,1-1.5@0.1,1.5-@1", failing: [1]))
        #expect(s == [ReencodedSpan(from: Rational(1), to: Rational(2), decodeFrom: Rational(1))])
    }

    @Test func aSpanStartingBetweenKeyframesDecodesFromTheOneBefore() throws {
        let s = try #require(try spans("0-2.5@1,2.5-3@0.2,3-@1", failing: [1]))
        #expect(s == [ReencodedSpan(from: Rational(5, 2), to: Rational(3), decodeFrom: Rational(2))])
    }

    @Test func spansThatMeetAreMerged() throws {
        // The first runs to the keyframe at 2 s, past where the second starts (1.8 s).
        let s = try #require(try spans("0-1@1,1-1.5@0.1,1.5-1.8@1,1.8-2.2@0.1,2.2-@1", failing: [1, 3]))
        #expect(s == [ReencodedSpan(from: Rational(1), to: Rational(3), decodeFrom: Rational(1))])
    }

    @Test func withoutALaterKeyframeTheSpanRunsToTheEnd() throws {
        let s = try #require(try spans("0-1@1,1-5.5@0.1,5.5-@1", failing: [1]))
        #expect(s == [ReencodedSpan(from: Rational(1), to: nil, decodeFrom: Rational(1))])
        #expect(s[0].covers(Rational(59, 10)) && !s[0].covers(Rational(99, 100)))
    }

    @Test func withoutAKeyframeBeforeThereIsNoSpan() throws {
        let late = MixedReencode.spans(
            try TimeMap(parsing: "0-1@1,1-2@0.1,2-@1"), failing: [1], keyframes: [Rational(3, 2)], end: Rational(6))
        #expect(late == nil)
    }

    @Test func theFirstSlotIsTheFirstWholeFrameAtOrAfterTheStart() throws {
        let map = try TimeMap(parsing: "0-1@1,1-2@0.1,2-@1")
        let plan = ExportPlan(
            captureRate: Rational(120), streamScale: Rational(1), outputRate: Rational(30), map: map,
            start: Rational(0), end: Rational(6), decodeStart: nil, layers: nil, reencodeReason: nil,
            copiesAudio: false, notes: [], interpolation: .flow)
        #expect(plan.firstSlot(atOrAfter: Rational(1)) == 30)
        #expect(plan.firstSlot(atOrAfter: Rational(1001, 1000)) == 31)
        #expect(plan.firstSlot(atOrAfter: Rational(2)) == 330)
        #expect(plan.firstSlot(atOrAfter: Rational(0)) == 0)
    }
}
