import Foundation
import HFRMedia
import HFRProbe
import Testing

@testable import HFRExport

/// Ramps with eased changes of speed (`2-3@0.25 ease 0.5s`): parsed and written back as given,
/// expanded into steps whose output times follow the ideal smoothstep curve, checked.
@Suite struct TimeMapEaseTests {
    static let spec = "0-2@1,2-4@1/4 ease 0.5,4-@1 ease 1/3"

    /// Output seconds of source time `t` (0…5) on the ideal curves of `spec`: a table made by the
    /// trapezoid rule on a grid of 10 µs, an integration of its own (not `SpeedEase`'s).
    static func idealOutput(_ t: Double) -> Double {
        let position = t / idealStep
        let i = min(Int(position), idealTable.count - 2)
        return idealTable[i] + (idealTable[i + 1] - idealTable[i]) * (position - Double(i))
    }

    static let idealStep = 1e-5
    static let idealTable: [Double] = {
        func speed(_ s: Double) -> Double {
            func eased(_ start: Double, _ d: Double, _ a: Double, _ b: Double) -> Double {
                let u = (s - start) / d
                return a + (b - a) * u * u * (3 - 2 * u)
            }
            if s < 2 { return 1 }
            if s < 2.5 { return eased(2, 0.5, 1, 0.25) }
            if s < 4 { return 0.25 }
            if s < 4 + 1.0 / 3 { return eased(4, 1.0 / 3, 0.25, 1) }
            return 1
        }
        var table = [0.0]
        for i in 1...Int(5 / idealStep) {
            let (a, b) = (Double(i - 1) * idealStep, Double(i) * idealStep)
            table.append(table[i - 1] + (1 / speed(a) + 1 / speed(b)) / 2 * idealStep)
        }
        return table
    }()

    @Test func theSpecIsWrittenBackAsGivenAndReadsBackTheSame() throws {
        let map = try TimeMap(parsing: "0-2@1,2-4@0.25 ease 500ms,4-@1 ease 1/3")
        #expect(map.description == Self.spec)
        #expect(try TimeMap(parsing: map.description) == map)
        #expect(map.given.map(\.ease) == [nil, Rational(1, 2), Rational(1, 3)])
        #expect(map.eases.count == 2)
        #expect(map.eases.map(\.from) == [Rational(1), Rational(1, 4)])
        #expect(map.eases.map(\.to) == [Rational(1, 4), Rational(1)])
    }

    /// At every step boundary the output time is the ideal curve's to a few microseconds (the grid
    /// and the reference's own error); anywhere else within a millisecond: far less than a frame.
    @Test func outputTimesFollowTheIdealCurve() throws {
        let map = try TimeMap(parsing: Self.spec)
        for ease in map.eases {
            for i in ease.steps {
                let t = map.segments[i].end!
                #expect(abs(map.outputTime(at: t).doubleValue - Self.idealOutput(t.doubleValue)) < 5e-6, "at \(t)")
            }
        }
        for t in stride(from: 1.9, through: 4.6, by: 0.0137) {
            let exact = map.outputTime(at: Rational(approximating: t)).doubleValue
            #expect(abs(exact - Self.idealOutput(t)) < 1e-3, "at \(t)")
        }
        // The whole eased ramp to 5 s: the integral, to the microsecond.
        #expect(abs(map.outputTime(at: Rational(5)).doubleValue - Self.idealOutput(5)) < 5e-6)
    }

    /// Steps of at most 1/60 s of output, their speeds moving one way from one speed to the other.
    @Test func stepsAreShortAndMonotonic() throws {
        let map = try TimeMap(parsing: Self.spec)
        let slowing = map.eases[0].steps.map { map.segments[$0] }
        #expect(slowing.count > 30)
        #expect(slowing.first?.start == Rational(2) && slowing.last?.end == Rational(5, 2))
        #expect(zip(slowing, slowing.dropFirst()).allSatisfy { $0.speed > $1.speed && $0.end == $1.start })
        #expect(slowing.allSatisfy { $0.speed < Rational(1) && $0.speed > Rational(1, 4) })
        for s in slowing { #expect((s.end! - s.start) / s.speed <= Rational(1, 60)) }
        let after = map.segments[map.eases[0].steps.upperBound]
        #expect(after.start == Rational(5, 2) && after.speed == Rational(1, 4))
    }

    @Test(arguments: [
        ("0-2@1 ease 0.5,2-@1", "no segment before it"), ("0-2@1,2-2.4@0.5 ease 0.5", "longer than the segment"),
        ("0-2@1,2-@0.5 ease 0", "longer than 0"), ("0-2@1,2-@0.5 eas 0.5", "START-END@SPEED ease DURATION"),
        ("0-2@1,2-@0.5 ease", "START-END@SPEED"), ("0-2@1,2-@0.5 ease x", "START-END@SPEED"),
    ])
    func rejectsBadEases(spec: String, message: String) {
        #expect {
            _ = try TimeMap(parsing: spec)
        } throws: { error in
            (error as? TimeMap.Invalid)?.description.contains(message) == true
        }
    }

    /// A 4× slow-motion stream's map (boundaries 4× later, speeds 4× faster): the same output
    /// times, and back in real time the same spec.
    @Test func timeScalingKeepsOutputTimesAndTheSpec() throws {
        let map = try TimeMap(parsing: Self.spec)
        let stream = map.timeScaled(by: Rational(4))
        for t in [Rational(21, 10), Rational(9, 4), Rational(41, 10), Rational(6)] {
            #expect(stream.outputTime(at: t * Rational(4)) == map.outputTime(at: t))
        }
        #expect(stream.eases.map(\.steps) == map.eases.map(\.steps))
        #expect(stream.timeScaled(by: Rational(1, 4)).description == Self.spec)
    }

    /// Snapping moves the given boundaries, not the steps; an ease a shortened segment cannot
    /// hold is shortened with it.
    @Test func snappingMovesTheGivenBoundariesAndExpandsAgain() throws {
        let map = try TimeMap(parsing: "0-2.01@1,2.01-2.3@0.5 ease 0.29,2.3-@1")
        let snapped = map.movingBoundaries { ($0 * Rational(10)).rounded().rational / Rational(10) }
        #expect(snapped.description == "0-2@1,2-2.3@1/2 ease 0.29,2.3-@1")
        let moved = map.movingBoundaries { b in b == Rational(23, 10) ? Rational(22, 10) : b }
        #expect(moved.description == "0-2.01@1,2.01-2.2@1/2 ease 0.19,2.2-@1")
        #expect(moved.segments[moved.eases[0].steps.upperBound - 1].end == Rational(22, 10))
    }

    /// Probe reads the tag back with the same steps: each given segment plays where export put it.
    @Test func probeReadsTheSameOutputTimes() throws {
        let map = try TimeMap(parsing: Self.spec)
        let read = try #require(ExportTimeMap(tag: map.description))
        #expect(read.segments.map(\.ease) == map.given.map(\.ease))
        for (probed, given) in zip(read.segments, map.given) {
            #expect(probed.outputStart == map.outputTime(at: given.start))
            #expect(probed.outputEnd == given.end.map { map.outputTime(at: $0) })
        }
    }

    /// An eased step's exact speed has terms too large for swresample: the nearest small fraction.
    @Test func varispeedTakesTheNearestSmallFraction() {
        let speed = Rational(25000, 46323)
        let near = VarispeedStretcher.nearest(speed, limit: 44739)
        #expect(near.numerator <= 44739 && near.denominator <= 44739)
        #expect(abs((near - speed).doubleValue) < 1e-8)
        #expect(VarispeedStretcher.nearest(Rational(1, 4), limit: 44739) == Rational(1, 4))
    }
}

extension Int64 {
    fileprivate var rational: Rational { Rational(self) }
}
