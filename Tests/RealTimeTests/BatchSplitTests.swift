import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Jobs that say `"split"`: cut at keyframes into units, run by `hfr batch` (one run or shards),
/// joined into what one `hfr export` writes.
@Suite struct BatchSplitTests {
    /// 4 s at 120 fps with B-frames and a keyframe each second, AAC audio, tagged 120 fps.
    static func workspace() throws -> BatchWorkspace {
        let w = try BatchWorkspace()
        let made = try SplitTake.make(w.dir.path("in/a.mp4"), seconds: 4, size: "160x96")
        #expect(made.status == 0, "\(made.stderr)")
        try w.manifest(
            """
            {"schema": "hfr.batch/1", "jobs": [
              {"input": "in/a.mp4", "output": "out/conform.mp4", "conform": 30, "split": 3},
              {"input": "in/a.mp4", "output": "out/slow.mov", "speed": 0.25, "fps": 30, "interpolate": "blend",
               "split": "auto"}]}
            """)
        return w
    }

    static func reading(_ path: String) throws -> FFprobeReading {
        FFprobeReading(json: try Tool.run("ffprobe", FFprobeReading.arguments(path, decoding: false)).stdout)
    }

    /// One run: 3 + 4 video parts and two rest units, joined; the conform is one export's packet
    /// for packet, the re-encoded slowdown has one export's frames, duration and audio packets.
    /// Again with --resume: nothing runs, both outputs are up to date and untouched.
    @Test func oneRunJoinsEverySplitJobAsOneExportWritesIt() throws {
        let w = try Self.workspace()
        let report = w.dir.path("report.json")
        let r = try w.batch([w.dir.path("batch.json"), "-j", "2", "--segment-seconds", "1", "--json-report", report])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try Tool.json(String(contentsOfFile: report, encoding: .utf8))
        try DocSchema(file: "batch-manifest.md", section: "## `--json-report FILE`").check(json, "batch report")
        let jobs = try w.reportJobs(report)
        #expect(jobs.count == 3 + 1 + 4 + 1)
        #expect(
            jobs.compactMap { ($0["split"] as? [String: Any])?["part"] as? String }.filter { $0 == "rest" }.count == 2)
        let joins = try #require(json["joins"] as? [[String: Any]])
        #expect(joins.map { $0["status"] as? String } == ["joined", "joined"], "\(joins)")
        #expect(joins.map { $0["parts"] as? Int } == [3, 4])
        #expect(r.stderr.contains("batch: joined out/conform.mp4 from 3 parts (480 frames)"), "\(r.stderr)")

        for (name, options) in [
            ("conform.mp4", ["--conform", "30"]),
            ("slow.mov", ["--speed", "0.25", "--fps", "30", "--interpolate", "blend"]),
        ] {
            let whole = w.dir.path("whole-\(name)")
            let e = try Tool.hfr(["export", w.dir.path("in/a.mp4"), whole] + options)
            #expect(e.status == 0, "\(e.stderr)")
            let joined = w.dir.path("out/\(name)")
            if name == "conform.mp4" {
                let expected = try SplitTake.packets(whole)
                let got = try SplitTake.packets(joined)
                #expect(expected.count > 480 && got == expected)
                continue
            }
            let (a, b) = (try Self.reading(joined), try Self.reading(whole))
            #expect(a.videoPackets.count == b.videoPackets.count && a.videoPackets.count == 480)
            #expect(abs(a.duration - b.duration) < 0.001, "\(a.duration) \(b.duration)")
            let audio = try SplitTake.packets(whole).filter { $0.hasPrefix("packet,1,") }
            let joinedAudio = try SplitTake.packets(joined).filter { $0.hasPrefix("packet,1,") }
            #expect(!audio.isEmpty && joinedAudio == audio)
        }

        let before = try FileManager.default.attributesOfItem(atPath: w.dir.path("out/conform.mp4"))
        let again = try w.batch([w.dir.path("batch.json"), "--segment-seconds", "1", "--resume"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("9 up to date"), "\(again.stderr)")
        #expect(again.stderr.contains("out/conform.mp4 is up to date (its 3 parts were)"), "\(again.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: w.dir.path("out/conform.mp4"))
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
    }

    /// Two shards, each holding some units of each job: neither joins; `batch merge` of their
    /// reports does, and the outputs are byte for byte the one-run batch's.
    @Test func shardsLeaveTheJoinToTheMerge() throws {
        let w = try Self.workspace()
        let manifest = w.dir.path("batch.json")
        let one = try w.batch([manifest, "--segment-seconds", "1"])
        #expect(one.status == 0, "\(one.stderr)")
        for name in ["conform.mp4", "slow.mov"] {
            try FileManager.default.moveItem(atPath: w.dir.path("out/\(name)"), toPath: w.dir.path("one-\(name)"))
        }
        try FileManager.default.removeItem(atPath: w.dir.path("out"))
        var reports: [String] = []
        for k in 1...2 {
            let report = w.dir.path("shard-\(k).json")
            let r = try w.batch([manifest, "--segment-seconds", "1", "--shard", "\(k)/2", "--json-report", report])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("joined"), "\(r.stderr)")
            reports.append(report)
        }
        #expect(!FileManager.default.fileExists(atPath: w.dir.path("out/conform.mp4")))
        let merged = w.dir.path("merged.json")
        let m = try Tool.hfr(["batch", "merge"] + reports + ["--json-report", merged])
        #expect(m.status == 0, "\(m.stderr)")
        let json = try Tool.json(String(contentsOfFile: merged, encoding: .utf8))
        try DocSchema(file: "batch-manifest.md", section: "## `hfr batch merge --json-report FILE`").check(
            json, "merged report")
        #expect((json["joins"] as? [[String: Any]])?.compactMap { $0["status"] as? String } == ["joined", "joined"])
        for name in ["conform.mp4", "slow.mov"] {
            #expect(
                FileManager.default.contentsEqual(
                    atPath: w.dir.path("out/\(name)"), andPath: w.dir.path("one-\(name)")),
                "\(name) differs from the one-run batch's")
        }
    }

    /// Matroska has no edit lists, so its timeline moves by the audio's priming: refused before any job.
    @Test func aSplitJobIntoMatroskaIsRefused() throws {
        let w = try Self.workspace()
        let manifest = try w.manifest(
            #"{"schema": "hfr.batch/1", "jobs": [{"input": "in/a.mp4", "output": "out/a.mkv", "conform": 30, "split": 2}]}"#,
            name: "mkv.json")
        let r = try w.batch([manifest])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("jobs[0].split: a split job writes MP4 or MOV"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: w.dir.path("out")))
    }

    /// A unit that fails leaves its job's output unwritten and says why; the batch exits 1.
    @Test func aFailedUnitLeavesTheOutputUnjoined() throws {
        let w = try Self.workspace()
        // The rest unit cannot be written where a directory of its name stands.
        try FileManager.default.createDirectory(
            atPath: w.dir.path("out/conform.mp4.hfr-split/rest.mp4"), withIntermediateDirectories: true)
        let r = try w.batch([w.dir.path("batch.json"), "--segment-seconds", "1", "--json-report", w.dir.path("r.json")])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("out/conform.mp4 not joined: rest failed"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: w.dir.path("out/conform.mp4")))
        #expect(FileManager.default.fileExists(atPath: w.dir.path("out/slow.mov")))
        let joins = try #require(
            try Tool.json(String(contentsOfFile: w.dir.path("r.json"), encoding: .utf8))["joins"] as? [[String: Any]])
        #expect(joins.map { $0["status"] as? String } == ["incomplete", "joined"])
    }
}
