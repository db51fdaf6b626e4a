import HFRExport
import HFRMedia
import Testing

@Suite struct TimeMapTests {
    @Test func rampIntegratesOneOverSpeed() throws {
        let map = try TimeMap(parsing: "0-2@1,2-4@0.25,4-@1")
        #expect(map.outputTime(at: Rational(1)) == Rational(1))
        #expect(map.outputTime(at: Rational(2)) == Rational(2))
        #expect(map.outputTime(at: Rational(3)) == Rational(6))
        #expect(map.outputTime(at: Rational(4)) == Rational(10))
        #expect(map.outputTime(at: Rational(6)) == Rational(12))
        #expect(map.outputTime(at: Rational(241, 120)) == Rational(2) + Rational(4, 120))
        #expect(map.description == "0-2@1,2-4@1/4,4-@1")
    }

    @Test(arguments: [0, 1, 5, 9, 11, 20])
    func sourceTimeInvertsOutputTime(output: Int) throws {
        let map = try TimeMap(parsing: "0-2@1,2-4@1/4,4-@1")
        let t = map.sourceTime(at: Rational(Int64(output)))
        #expect(map.outputTime(at: t) == Rational(Int64(output)))
    }

    @Test func conformIsExactOverHours() {
        // 120 fps shown at 30: frame n of a 10-hour recording lands exactly on n/30 s.
        let map = TimeMap(speed: Rational(30, 120))
        let n: Int64 = 120 * 3600 * 10
        #expect(map.outputTime(at: Rational(n, 120)) == Rational(n, 30))
        #expect(map.outputTime(at: Rational(n + 1, 120)) - map.outputTime(at: Rational(n, 120)) == Rational(1, 30))
    }

    @Test func closedLastSegmentContinuesInRealTime() throws {
        let map = try TimeMap(parsing: "0-1@0.5")
        #expect(map.segments.count == 2)
        #expect(map.outputTime(at: Rational(3)) == Rational(4))
    }

    @Test(arguments: [
        ("0-2@1,1-4@0.5", "overlaps"), ("0-2@1,4-3@1", "runs backwards"), ("0-2@1,3-4@1", "gap"),
        ("1-2@1", "start at 0"), ("0-2@0", "not positive"), ("0-2@-1", "not positive"), ("0-@1,2-3@1", "open-ended"),
        ("0-2", "START-END@SPEED"), ("zero-2@1", "START-END@SPEED"),
    ])
    func rejectsBadRamps(spec: String, message: String) {
        #expect {
            _ = try TimeMap(parsing: spec)
        } throws: { error in
            (error as? TimeMap.Invalid)?.description.contains(message) == true
        }
    }

    @Test func boundariesMoveAndEmptySegmentsVanish() throws {
        let map = try TimeMap(parsing: "0-2.01@1,2.01-2.012@0.5,2.012-@1")
        let snapped = map.movingBoundaries { ($0 * Rational(30)).rounded().rational / Rational(30) }
        #expect(snapped.segments.map(\.start) == [Rational(0), Rational(2)])
    }
}

extension Int64 {
    fileprivate var rational: Rational { Rational(self) }
}
