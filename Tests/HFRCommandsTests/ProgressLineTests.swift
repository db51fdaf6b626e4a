import HFRExport
import Testing

@testable import HFRCommands

/// The text of the progress lines, field by field (the end-to-end ProgressTests see them live).
struct ProgressLineTests {
    @Test func exportLineHasFfmpegsFields() {
        let tick = ExportTick(
            inputFraction: 0.3, framesWritten: 1234, outputSeconds: 4.2, plannedSeconds: 16, isReencoding: true)
        // 1234 frames and 4.2 output seconds in 1.45 s: 851 fps, 2.90x; 11.8 s left at that speed.
        #expect(
            ExportProgress.text(tick, elapsed: 1.45)
                == "re-encoding: frame=  1234 fps= 851 speed=2.90x time=0:04.2/0:16.0 ETA 0:04")
        var copy = tick
        copy.isReencoding = false
        copy.framesWritten = 0
        copy.outputSeconds = 0
        let start = ExportProgress.text(copy, elapsed: 0)
        #expect(start == "frame=     0 fps=   0 speed=0.00x time=0:00.0/0:16.0 ETA -:--")
    }

    @Test(arguments: [(0.0, "0:00"), (4.4, "0:04"), (65, "1:05"), (3723, "1:02:03")])
    func clock(seconds: Double, text: String) {
        #expect(ProgressLine.clock(seconds) == text)
    }

    @Test(arguments: [(0.0, "0:00.0"), (4.26, "0:04.2"), (65.05, "1:05.0"), (600, "10:00.0")])
    func clockTenths(seconds: Double, text: String) {
        #expect(ProgressLine.clockTenths(seconds) == text)
    }

    @Test func fitCutsToTheWidthWithAnEllipsis() {
        #expect(ProgressLine.fit("abcdef", width: 6) == "abcdef")
        #expect(ProgressLine.fit("abcdefg", width: 6) == "abcde…")
    }
}
