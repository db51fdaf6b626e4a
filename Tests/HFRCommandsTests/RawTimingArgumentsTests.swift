import Foundation
import HFRMedia
import Testing

@testable import HFRCommands

/// `--timestamps FILE` / `--input-fps R` as export and probe parse them.
@Suite struct RawTimingArgumentsTests {
    func parse(_ words: [String]) throws(HFRError) -> RawTimingArguments {
        try RawTimingArguments(ParsedArguments(["in.h264"] + words, for: ProbeCommand.self), of: ProbeCommand.self)
    }

    @Test(arguments: [
        ("120", Rational(120)), ("119.88", Rational(11988, 100)), ("120000/1001", Rational(120_000, 1001)),
    ])
    func readsRatesAsWritten(text: String, rate: Rational) throws {
        let timing = try parse(["--input-fps", text])
        #expect(timing.inputRate == rate)
        #expect(try timing.timing() == .constantRate(rate))
    }

    @Test(arguments: [
        ["--input-fps", "0"], ["--input-fps", "-120"], ["--input-fps", "fast"], ["--input-fps", "1/0"],
    ])
    func refusesRatesThatAreNotPositive(words: [String]) {
        #expect {
            try parse(words)
        } throws: { error in
            (error as? HFRError)?.exitCode == .usage && (error as? HFRError)?.message.contains("--input-fps") == true
        }
    }

    @Test func theTwoOptionsExcludeEachOther() {
        #expect {
            try parse(["--timestamps", "pts.txt", "--input-fps", "120"])
        } throws: { error in
            (error as? HFRError)?.exitCode == .usage && (error as? HFRError)?.message.contains("exclude") == true
        }
    }

    /// The file is read when the command runs: a missing one is an I/O error (74), a bad line bad
    /// data (65) naming the file and the line.
    @Test func readsTheFileOnlyWhenAsked() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hfr-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try parse(["--timestamps", dir.appendingPathComponent("none.txt").path])
        #expect(missing.timestampsPath != nil)
        do {
            _ = try missing.timing()
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.exitCode == .ioError)
        }
        let bad = dir.appendingPathComponent("bad.txt").path
        try "# timecode format v2\n0\n8,3\n".write(toFile: bad, atomically: true, encoding: .utf8)
        do {
            _ = try parse(["--timestamps", bad]).timing()
            Issue.record("a bad line was accepted")
        } catch {
            #expect(error.exitCode == .dataError)
            #expect(error.message == "\(bad): line 3: '8,3' is not a time in milliseconds (such as 33.333)")
        }
        let good = dir.appendingPathComponent("good.txt").path
        try "# timecode format v2\n0\n8.5\n".write(toFile: good, atomically: true, encoding: .utf8)
        #expect(
            try parse(["--timestamps", good]).timing()
                == .timestamps(TimestampList(seconds: [Rational(0), Rational(17, 2000)], source: good)))
    }
}
