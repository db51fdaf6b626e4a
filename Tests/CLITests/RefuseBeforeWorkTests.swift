import Foundation
import HFRTestSupport
import Testing

/// Refused before any work: an output container hfr does not write (record, export, batch), and a
/// stale partial recording in the way, named with what to do about it.
@Suite struct RefuseBeforeWorkTests {
    func expectUsageError(_ r: ToolResult, mentions: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 64, "stderr: \(r.stderr)", sourceLocation: sourceLocation)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1, "stderr: \(r.stderr)", sourceLocation: sourceLocation)
        for text in mentions {
            #expect(errors.first?.contains(text) == true, "\(text): \(r.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// `record … out.avi` used to record, fail at the end (exit 74) and leave out.partial.mp4.
    @Test(arguments: [["--source", "test", "--frames", "30", "--size", "320x240"], ["--device", "/dev/video-none"]])
    func recordRefusesAnAVIAtOnce(source: [String]) throws {
        let dir = try TemporaryDirectory()
        let r = try Tool.hfr(["record"] + source + [dir.path("out.avi")])
        expectUsageError(r, mentions: [dir.path("out.avi"), ".mp4, .mov or .mkv"])
        #expect(try dir.contents() == [])
    }

    @Test(arguments: ["x.avi", "x.ts", "x"])
    func exportRefusesAContainerItDoesNotWriteAtOnce(name: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Fixtures.copy("layered-120fps.mp4", to: dir)
        let r = try Tool.hfr(["export", input, dir.path(name), "--conform", "30"])
        expectUsageError(r, mentions: [dir.path(name), ".mp4, .mov, .mkv or .webm"])
        #expect(try dir.contents() == ["layered-120fps.mp4"])
    }

    @Test func batchRefusesAnAVIOutputWithTheManifest() throws {
        let dir = try TemporaryDirectory()
        _ = try Fixtures.copy("layered-120fps.mp4", to: dir)
        let manifest = dir.path("batch.json")
        try """
        { "schema": "hfr.batch/1", "jobs": [ { "input": "layered-120fps.mp4", "output": "out.avi", "conform": 30 } ] }
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let r = try Tool.hfr(["batch", manifest, "-j", "1"])
        expectUsageError(r, mentions: ["out.avi", ".mp4, .mov, .mkv or .webm"])
        #expect(try dir.contents() == ["batch.json", "layered-120fps.mp4"])
    }

    /// A partial recording left by a crash plays: it is never replaced silently, and the error
    /// says both ways on (move it away, or --force).
    @Test func aStalePartialRecordingIsNamedWithWhatToDo() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        let partial = dir.path("out.partial.mp4")
        try Data("a crashed recording".utf8).write(to: URL(fileURLWithPath: partial))
        let r = try Tool.hfr(["record", "--source", "test", "--frames", "10", "--size", "320x240", out])
        #expect(r.status == 74, "stderr: \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "stderr: \(r.stderr)")
        for text in [partial, "it plays", "move it away", "--force to replace it"] {
            #expect(r.stderr.contains(text), "\(text): \(r.stderr)")
        }
        #expect(try String(contentsOfFile: partial, encoding: .utf8) == "a crashed recording")
        #expect(try dir.contents() == ["out.partial.mp4"])
        let forced = try Tool.hfr(["record", "--source", "test", "--frames", "10", "--size", "320x240", "--force", out])
        #expect(forced.status == 0, "stderr: \(forced.stderr)")
        #expect(try dir.contents() == ["out.mp4"])
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 10)
    }
}
