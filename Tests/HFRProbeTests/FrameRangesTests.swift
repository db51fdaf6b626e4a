import HFRProbe
import Testing

/// The `com.hfr.filled-drops` form: output frames as runs, written and read back.
@Suite struct FrameRangesTests {
    @Test func framesInOrderJoinIntoRuns() {
        var r = FrameRanges()
        for f: Int64 in [3, 4, 5, 9, 10, 12] { r.append(f) }
        #expect(r.description == "3-5,9-10,12")
        #expect(r.count == 6)
        #expect([3, 4, 5, 9, 10, 12].allSatisfy { r.contains($0) })
        #expect(![0, 2, 6, 8, 11, 13].contains { r.contains($0) })
        #expect(FrameRanges(parsing: r.description) == r)
        #expect(FrameRanges().description.isEmpty && FrameRanges().count == 0 && !FrameRanges().contains(0))
    }

    @Test(arguments: ["", "5-3", "3,2", "3-5,6", "-1", "1-", "a", "1,,2", "1-2-3", " 1", "١"])
    func refusesWhatItDoesNotWrite(text: String) {
        #expect(FrameRanges(parsing: text) == nil, "'\(text)'")
    }
}
