import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// The JSON hfr writes and docs/*-json.md agree: every member written is documented, every
/// documented member (not marked optional) is written, and members with a fixed set of values take
/// only documented ones. The docs are read as their "Reading the member tables" section says.
@Suite struct JSONDocsTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    @Test func exportDocumentsMatchExports() throws {
        let schema = try DocSchema(file: "export-json.md")
        #expect(schema.members["video.layerSignalling"]?.values?.contains("not-analysed") == true)
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.sixSeconds.get()
        let runs: [[String]] = [
            ["--conform", "30"], ["--fps", "30"], ["--ramp", "0-2@1,2-4@0.25,4-@1", "--fps", "30"],
            ["--fps", "30", "--reencode", "always", "--audio", "mute"], ["--speed", "0.5", "--audio", "varispeed"],
            // New frames made between captured ones: the interpolation members and tag have values.
            ["--speed", "0.125", "--fps", "30", "--range", "0-0.5", "--interpolate", "blend", "--audio", "mute"],
        ]
        var layerSignals: Set<String> = []
        for (i, options) in runs.enumerated() {
            let out = dir.path("e\(i).\(["mp4", "mkv", "mov"][i % 3])")
            let r = try Tool.hfr(["export", input, out, "--json"] + options)
            #expect(r.status == 0, "\(options): \(r.stderr)")
            let json = try Tool.json(r.stdout)
            schema.check(json, "export \(options.joined(separator: " "))")
            let dryRun = try Tool.hfr(["export", input, out, "--dry-run", "--json"] + options)
            #expect(dryRun.status == 0, "\(options) --dry-run: \(dryRun.stderr)")
            schema.member("plan").check(try Tool.json(dryRun.stdout), "export --dry-run \(options)")
            layerSignals.insert(((json["video"] as? [String: Any])?["layerSignalling"] as? String) ?? "")
            try DocSchema(file: "probe-json.md").check(
                Tool.json(Tool.hfr(["probe", "--json", out]).stdout), "probe \(out)")
        }
        // A header-analysed conform and analysed copies: both kinds of value were checked.
        #expect(layerSignals == ["not-analysed", "svc-temporal-id"])
    }

    @Test func probeDocumentMatchesProbes() throws {
        let schema = try DocSchema(file: "probe-json.md")
        let recording = try ExportInputs.sixSeconds.get()
        let full = try Tool.hfr(["probe", "--json", "--frames", recording])
        #expect(full.status == 0, "\(full.stderr)")
        let json = try Tool.json(full.stdout)
        #expect((json["frames"] as? [Any])?.isEmpty == false)
        schema.check(json, "probe --frames")
        // A file without audio or layers: ffmpeg's x264 with B-frames, in Matroska.
        let dir = try TemporaryDirectory()
        let plain = dir.path("plain.mkv")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x90:rate=30", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            plain,
        ])
        schema.check(try Tool.json(Tool.hfr(["probe", "--json", "--frames", plain]).stdout), "probe plain.mkv")
    }

    @Test func batchReportAndDevicesMatchTheirDocuments() throws {
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.sixSeconds.get()
        try FileManager.default.copyItem(atPath: input, toPath: dir.path("a.mp4"))
        let manifest = dir.path("batch.json")
        try Data(
            """
            {"schema": "hfr.batch/1", "jobs": [
              {"input": "a.mp4", "output": "out/a-30.mp4", "fps": 30},
              {"input": "a.mp4", "output": "out/a-refused.mp4", "fps": 7, "reencode": "never"},
              {"input": "a.mp4", "output": "out/a-slow.mkv", "conform": 30}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: manifest))
        let report = dir.path("report.json")
        let r = try Tool.hfr(["batch", manifest, "--json-report", report])
        #expect(r.status != 64, "\(r.stderr)")
        let json = try Tool.json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: report)), as: UTF8.self))
        try DocSchema(file: "batch-manifest.md", section: "## `--json-report FILE`").check(json, "batch report")
        let jobs = try #require(json["jobs"] as? [[String: Any]])
        // Both ends of the status values, and an error line, were checked.
        #expect(jobs.map { $0["status"] as? String } == ["succeeded", "failed", "succeeded"])
        #expect(jobs[1]["error"] is String)

        let devices = try Tool.hfr(["devices", "--json"])
        #expect(devices.status == 0, "\(devices.stderr)")
        try DocSchema(file: "devices-json.md", section: "## `hfr devices --json`").check(
            Tool.json(devices.stdout), "devices")
    }

    /// The convention itself: a table row, its siblings, `optional` and `one of:`.
    @Test func theConventionIsReadAsWritten() throws {
        let schema = DocSchema(
            text: """
                | member | type | meaning |
                | --- | --- | --- |
                | `a` | object | x |
                | `a.b`, `c` | string, optional | one of: `"x"`, `"y"`; not `"z"` |
                | `l` | array | x |
                | `l[].n` | number | n |
                """)
        #expect(schema.members["a.c"]?.isOptional == true)
        #expect(schema.members["a.b"]?.values == ["x", "y"])
        #expect(schema.members["l[].n"]?.isOptional == false)
        #expect(schema.problems(["a": ["b": "z", "d": 1], "l": [["n": 1], [:]]]).count == 3)
        #expect(schema.problems(["a": ["c": "x"], "l": [["n": 1]]]).isEmpty)
    }
}
