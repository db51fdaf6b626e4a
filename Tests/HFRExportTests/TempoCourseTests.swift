import Testing

@testable import HFRExport

/// The tempo an eased time-domain piece is played at, sequence by sequence: on a model of WSOLA's
/// accounting it brings the stretcher onto the map and keeps it there through the ease.
@Suite struct TempoCourseTests {
    /// Real time for 4800 samples, then 40 equal steps of 480 input samples easing to 4× slower,
    /// then 4× slower for 4800 samples (piece input → output samples).
    static let points: [(input: Double, output: Double)] = {
        var points = [(input: 0.0, output: 0.0), (input: 4800.0, output: 4800.0)]
        for i in 1...40 {
            let speed = 1 - 0.75 * Double(i) / 40
            let last = points[points.count - 1]
            points.append((last.input + 480, last.output + 480 / speed))
        }
        let last = points[points.count - 1]
        points.append((last.input + 4800, last.output + 4800 * 4))
        return points
    }()

    @Test func speedAndInverseFollowTheSteps() {
        let course = TempoCourse(points: Self.points, fed: 0, dropped: 0) { _ in 0 }
        #expect(course.speed(atInput: 100) == 1)
        #expect(course.speed(atInput: -50) == 1)
        #expect(abs(course.speed(atInput: 4800) - (1 - 0.75 / 40)) < 1e-12)
        #expect(abs(course.speed(atInput: 30000) - 0.25) < 1e-12)
        #expect(course.input(atOutput: 2400) == 2400)
        #expect(course.input(atOutput: -100) == -100)
        let end = Self.points[Self.points.count - 1]
        #expect(course.input(atOutput: end.output + 400) == end.input + 100)
        #expect(abs(course.input(atOutput: 4800 + 480 / (1 - 0.75 / 40)) - 5280) < 1e-9)
    }

    /// WSOLA as SoundTouch counts it: each sequence makes 288 output samples and moves the input
    /// position by tempo × 288, the fraction carried; the input position is read whole. Sound at
    /// the input position lands `offset(tempo)` after the output position. From a start off the
    /// map (the pre-roll and drop not yet met), after two sequences every one lands on the map to
    /// a sample, the ease included, and the tempo never leaves twice or half the map's speed.
    @Test func steeredSequencesStayOnTheMap() {
        let offset: (Double) -> Double = { -300 * (1 / $0 - 1) - 90 }
        let (fed, dropped) = (100.0, 20.0)
        let course = TempoCourse(points: Self.points, fed: fed, dropped: dropped, offset: offset)
        func output(atInput x: Double) -> Double {
            let i = max(0, min(Self.points.count - 2, Self.points.lastIndex { $0.input <= x } ?? 0))
            let (a, b) = (Self.points[i], Self.points[i + 1])
            return a.output + (x - a.input) * (b.output - a.output) / (b.input - a.input)
        }
        let sequence = 288
        var position = 0.0
        var produced: Int64 = 0
        var worst = 0.0
        for k in 0..<260 {
            let consumed = Int64(position.rounded(.down))
            let local = course.speed(atInput: Double(consumed) - fed)
            let tempo = course.tempo(consumed: consumed, produced: produced, sequence: sequence)
            #expect(tempo >= local / 2 && tempo <= local * 2)
            position += tempo * Double(sequence)
            produced += Int64(sequence)
            // Where sound at the new input position lands, against where the map puts it.
            let landing = Double(produced) - dropped + offset(local)
            if k >= 2 { worst = max(worst, abs(landing - output(atInput: position.rounded(.down) - fed))) }
        }
        #expect(position - fed > Self.points[Self.points.count - 1].input, "the model ran through the map")
        // The input position read whole: a sample of input at the slowest speed, and rounding.
        #expect(worst <= 1 / 0.25 + 1, "sound lands up to \(worst) samples off the map")
    }
}
