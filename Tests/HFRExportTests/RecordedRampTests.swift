import HFRExport
import HFRMedia
import HFRProbe
import Testing

/// The time map of Samsung's recorded slow-motion segments (`--ramp auto`).
@Suite struct RecordedRampTests {
    typealias Segment = SamsungSlowMotion.Segment

    @Test func realTimeOutsideAndDividedInside() throws {
        let map = try TimeMap(
            slowMotion: [
                Segment(start: 1000, end: 2000, speedDivisor: 4), Segment(start: 3000, end: 3500, speedDivisor: 8),
            ],
            streamToSource: Rational(1))
        #expect(map.description == "0-1@1,1-2@1/4,2-3@1,3-3.5@1/8,3.5-@1")
        // 1 + 4 + 1 + 4 seconds to source time 3.5, then real time.
        #expect(map.outputTime(at: Rational(7, 2)) == Rational(10))
        #expect(map.outputTime(at: Rational(6)) == Rational(25, 2))
    }

    @Test func segmentAtTheStartAndStreamTimeScaled() throws {
        // A 30 fps stream of 240 fps capture: stream milliseconds are 8 times real time.
        let map = try TimeMap(
            slowMotion: [Segment(start: 0, end: 8000, speedDivisor: 8)], streamToSource: Rational(1, 8))
        #expect(map.description == "0-1@1/8,1-@1")
    }
}
