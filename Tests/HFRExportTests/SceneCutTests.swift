import HFRMedia
import Testing

@testable import HFRExport

/// The note an export with scene cuts prints.
@Suite struct SceneCutTests {
    static func cuts(_ seconds: [Int64]) -> [SceneCut] {
        seconds.map { SceneCut(source: Rational($0, 2), output: Rational($0 * 2)) }
    }

    @Test func noteCountsAndPlacesTheCuts() {
        #expect(SceneCut.note([], fill: .repeat) == nil)
        #expect(
            SceneCut.note(Self.cuts([3]), fill: .repeat)
                == "1 scene cut (source 1.5 s): not interpolated across "
                + "(repeat: the frame before each is held until the one after it)")
        #expect(
            SceneCut.note(Self.cuts([2, 5]), fill: .crossfade)
                == "2 scene cuts (source 1, 2.5 s): not interpolated across "
                + "(crossfade: the frames on either side are cross-faded)")
        let many = SceneCut.note(Self.cuts(Array(1...10)), fill: .repeat) ?? ""
        #expect(many.hasPrefix("10 scene cuts (source 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, … s): "), "\(many)")
    }
}
