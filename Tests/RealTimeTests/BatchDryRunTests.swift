import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `hfr batch --dry-run`: a table with a header whose columns say what each export will really do
/// (its own plan: audio copied where the speed is 1 whatever the options ask), and the same as JSON.
struct BatchDryRunTests {
    static let manifest = """
        { "schema": "hfr.batch/1",
          "defaults": { "audio": "spectral" },
          "jobs": [
            { "input": "in/a.mp4", "output": "out/a-slow.mp4", "conform": 30 },
            { "input": "in/a.mp4", "output": "out/a-60.mp4", "fps": 60 },
            { "input": "in/a.mp4", "output": "out/a-40.mkv", "fps": 40, "audio": "varispeed" },
            { "input": "in/a.mp4", "output": "out/a-mute.mp4", "conform": 30, "audio": "mute" },
            { "input": "in/x.mp4", "output": "out/x-slow.mp4", "speed": 0.5 },
            { "input": "in/a.mp4", "output": "out/a-never.mp4", "fps": 40, "reencode": "never" }
          ] }
        """

    static func workspace() throws -> BatchWorkspace {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4"])
        try w.add("x264-bframes.mp4", as: ["x.mp4"])
        try w.manifest(manifest)
        return w
    }

    /// The table's rows by output, each cell by its header.
    static func rows(_ text: String) -> (header: [String], byOutput: [String: [String: String]]) {
        let lines = text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let header = lines.first.map { $0.map(String.init) } ?? []
        var rows: [String: [String: String]] = [:]
        for line in lines.dropFirst() where line.count >= header.count {
            var row: [String: String] = [:]
            for (i, name) in header.enumerated() { row[name] = String(line[i]) }
            rows[row["output"] ?? ""] = row
        }
        return (header, rows)
    }

    @Test func theTableSaysWhatEachExportDoes() throws {
        let w = try Self.workspace()
        let r = try w.batch([w.dir.path("batch.json"), "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        let (header, rows) = Self.rows(r.stdout)
        #expect(header == ["job", "input", "output", "video", "frames", "seconds", "audio", "options"])
        #expect(rows.count == 6, "\(r.stdout)")
        // Speed 1: the audio packets are copied, though the defaults ask for spectral.
        #expect(rows["out/a-60.mp4"]?["audio"] == "copied")
        #expect(rows["out/a-60.mp4"]?["video"] == "copy")
        #expect(rows["out/a-60.mp4"]?["frames"] == "120")
        #expect(rows["out/a-slow.mp4"]?["audio"] == "spectral")
        #expect(rows["out/a-slow.mp4"]?["frames"] == "240")
        #expect(rows["out/a-slow.mp4"]?["seconds"] == "8.000")
        #expect(rows["out/a-40.mkv"]?["audio"] == "copied")
        #expect(rows["out/a-40.mkv"]?["video"] == "re-encode")
        #expect(rows["out/a-40.mkv"]?["frames"] == "80")
        #expect(rows["out/a-mute.mp4"]?["audio"] == "none")
        #expect(rows["out/x-slow.mp4"]?["audio"] == "spectral")
        // The job its export would refuse says so; the message is on stderr.
        #expect(r.stdout.contains("out/a-never.mp4  fails (exit 65)"), "\(r.stdout)")
        #expect(r.stderr.contains("would fail: ") && r.stderr.contains("(or allow --reencode auto)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: w.dir.path("out")), "the dry run wrote something")
    }

    /// The JSON form carries each job's export plan; the batch then writes what the plans said.
    @Test func theJSONPlansAreWhatTheBatchWrites() throws {
        let w = try Self.workspace()
        let manifest = w.dir.path("batch.json")
        let dry = try w.batch([manifest, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let document = try Tool.json(dry.stdout)
        #expect(document["schema"] as? String == "hfr.batch.plan/1")
        let planned = document["jobs"] as? [[String: Any]] ?? []
        #expect(planned.count == 6)
        let never = planned.first { ($0["output"] as? String)?.hasSuffix("a-never.mp4") == true }
        #expect(never?["exitCode"] as? Int == 65)
        #expect(never?["plan"] is NSNull)

        let report = w.dir.path("report.json")
        let run = try w.batch([manifest, "--json-report", report])
        #expect(run.status == 1, "one job is refused: \(run.stderr)")
        let results = try w.reportJobs(report)
        for job in planned {
            let id = job["id"] as? String
            let result = try #require(results.first { $0["id"] as? String == id })
            guard let plan = job["plan"] as? [String: Any] else {
                #expect(result["status"] as? String == "failed")
                #expect(result["exitCode"] as? Int == job["exitCode"] as? Int)
                continue
            }
            #expect(result["status"] as? String == "succeeded")
            #expect(result["frames"] as? Int == plan["framesOut"] as? Int, "\(job["output"] ?? "")")
            let output = try #require(job["output"] as? String)
            #expect(try FFprobe.count(output, stream: "v:0", decoding: false) == plan["framesOut"] as? Int)
            let audio = (plan["audio"] as? [String: Any])?["algorithm"] as? String
            #expect(try MediaChecks.entry(output, stream: "a:0", "codec_name").isEmpty == (audio == "none"))
        }
    }

    /// A manifest cannot make its exports dry runs (the batch would read plans as reports).
    @Test func aManifestCannotAskForADryRun() throws {
        let w = try Self.workspace()
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [ { "input": "in/a.mp4", "output": "out/a.mp4", "conform": 30, "dry-run": true } ] }
            """, name: "dry.json")
        let r = try w.batch([manifest, "--dry-run"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("hfr batch --dry-run"), "\(r.stderr)")
    }
}
