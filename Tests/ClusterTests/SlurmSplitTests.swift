import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

extension SlurmTests {
    /// Issue 46: one 60 s take split four ways over a 4-task Slurm array, joined by `batch merge`,
    /// against the same exports in one process: a conform (copied video, every packet identical)
    /// and an 8× slowdown with optical flow (re-encoded). Then a task SIGKILLed mid-segment and the
    /// array resubmitted (`--resume`): only that segment runs again, and the joins are the first
    /// run's bytes.
    @Test func aSplitTakeOverAFourTaskArrayJoinsAsOneProcessExportsIt() throws {
        let w = try BatchWorkspace()
        let input = w.dir.path("in/take.mp4")
        // 60 s at 120 fps, a keyframe each second, B-frames, AAC: the cuts fall at 15, 30 and 45 s.
        let made = try SplitTake.make(input, seconds: 60, size: "128x72")
        #expect(made.status == 0, "\(made.stderr)")
        // `--fps 16`: at 1/8 speed a 120 fps take gives 15 frames a second, so most pictures are made.
        let slow = ["--speed", "0.125", "--fps", "16", "--interpolate", "flow"]
        try w.manifest(
            """
            {"schema": "hfr.batch/1", "jobs": [
              {"input": "in/take.mp4", "output": "out/conform.mp4", "conform": 30, "split": 4},
              {"input": "in/take.mp4", "output": "out/slow.mp4", "speed": 0.125, "fps": 16, "interpolate": "flow",
               "split": 4}]}
            """, name: "split.json")
        let cluster = try SlurmCluster(directory: w.dir.path("slurm"))
        defer {
            cluster.stop()
            #expect(cluster.leftoverProcesses().isEmpty, "daemons left: \(cluster.leftoverProcesses())")
        }
        var clock = Date()
        let job = try submit(w, cluster, manifest: "split.json")
        #expect(try cluster.wait(for: job, timeout: 600), "the array did not finish")
        print("SlurmTests: the split array took \(Date().timeIntervalSince(clock)) s")
        let reports = (1...4).map { report(w, $0) }
        var units: [[String: Any]] = []
        for path in reports { units += try w.reportJobs(path) }
        #expect(units.count == 10 && units.allSatisfy { $0["status"] as? String == "succeeded" }, "\(units)")
        let merged = try Tool.hfr(["batch", "merge"] + reports + ["--json-report", w.dir.path("merged.json")])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("joined out/conform.mp4 from 4 parts (7200 frames)"), "\(merged.stderr)")

        clock = Date()
        let single = try Tool.hfr(["export", input, w.dir.path("single-conform.mp4"), "--conform", "30"])
        #expect(single.status == 0, "\(single.stderr)")
        for (name, options) in [("single-slow.mp4", slow), ("reference-slow.mp4", slow + ["--quality", "lossless"])] {
            let r = try Tool.hfr(["export", input, w.dir.path(name)] + options)
            #expect(r.status == 0, "\(r.stderr)")
        }
        print("SlurmTests: the single-process exports took \(Date().timeIntervalSince(clock)) s")
        try SplitComparison.check(
            joined: w.dir.path("out/conform.mp4"), single: w.dir.path("single-conform.mp4"), copied: true)
        let seams = try SplitComparison.check(
            joined: w.dir.path("out/slow.mp4"), single: w.dir.path("single-slow.mp4"), copied: false,
            reference: w.dir.path("reference-slow.mp4"))
        print("SlurmTests: split slowdown, PSNR against a lossless one-process export: \(seams)")
        // Where the parts meet: their ranges' starts in the input, 4x and 8x later in the outputs.
        let starts = units.compactMap { unit -> Double? in
            guard let options = unit["options"] as? [String], let i = options.firstIndex(of: "--range"),
                (unit["output"] as? String)?.contains("conform") == true
            else { return nil }
            // `15` or `61/4`: exact seconds.
            let fraction = options[i + 1].split(separator: "-")[0].split(separator: "/").compactMap { Double($0) }
            return fraction.count == 2 ? fraction[0] / fraction[1] : fraction.first
        }.filter { $0 > 0 }.sorted()
        #expect(starts.count == 3, "\(starts)")
        for (name, factor) in [("conform.mp4", 4.0), ("slow.mp4", 8.0)] {
            let steps = try SplitComparison.audioSteps(w.dir.path("out/\(name)"), seams: starts.map { $0 * factor })
            #expect(steps.seams <= steps.elsewhere, "\(name): \(steps)")
            print("SlurmTests: \(name) audio, largest step at a seam \(steps.seams), elsewhere \(steps.elsewhere)")
        }

        try killOneTaskMidSegmentAndResume(w, cluster, reports: reports)
    }

    /// Task K's slowdown part removed, the array resubmitted and task K SIGKILLed while it
    /// re-exports it (its temporary file there); resubmitted once more: task K runs only that part,
    /// everything else is skipped, and `batch merge` joins outputs identical to the first run's.
    func killOneTaskMidSegmentAndResume(_ w: BatchWorkspace, _ cluster: SlurmCluster, reports: [String]) throws {
        let first = ["conform.mp4", "slow.mp4"].map { w.dir.path("out/\($0)") }
        for path in first { try FileManager.default.copyItem(atPath: path, toPath: path + ".first") }
        // The task holding a video part of the slowdown, and that part.
        var victim: (task: Int, output: String)?
        for (k, path) in reports.enumerated() {
            for job in try w.reportJobs(path) {
                let split = job["split"] as? [String: Any]
                if victim == nil, split?["part"] as? String == "video",
                    (job["output"] as? String)?.contains("slow.mp4") == true
                {
                    victim = (k + 1, w.dir.path(job["output"] as? String ?? ""))
                }
            }
        }
        let (task, part) = try #require(victim)
        try FileManager.default.removeItem(atPath: part)
        let job = try submit(w, cluster, manifest: "split.json")
        // Its record says "running" once the export starts (the output is an unnamed file until then).
        let deadline = Date().addingTimeInterval(120)
        var writing = false
        while Date() < deadline, !writing {
            let record = FileManager.default.contents(atPath: part + ".hfr-batch.json") ?? Data()
            writing = String(decoding: record, as: UTF8.self).contains("\"state\":\"running\"")
            usleep(20_000)
        }
        #expect(writing, "task \(task) did not start on \(part)")
        usleep(500_000)
        let kill = try cluster.client("scancel", ["--signal=KILL", "\(job)_\(task)"])
        #expect(kill.status == 0, "scancel: \(kill.stderr)")
        #expect(try cluster.wait(for: job, timeout: 120), "the array did not end")
        #expect(!FileManager.default.fileExists(atPath: part), "the killed part was finished")

        let again = try submit(w, cluster, manifest: "split.json")
        #expect(try cluster.wait(for: again, timeout: 300), "the resubmitted array did not finish")
        for (k, path) in reports.enumerated() {
            let jobs = try w.reportJobs(path)
            let ran = jobs.filter { $0["status"] as? String == "succeeded" }.compactMap { $0["output"] as? String }
            let skipped = jobs.filter { $0["status"] as? String == "skipped" }.count
            if k + 1 == task {
                #expect(ran.map(w.dir.path) == [part] && skipped == jobs.count - 1, "task \(task) ran \(ran)")
            } else {
                #expect(ran.isEmpty && skipped == jobs.count, "task \(k + 1) ran \(ran) again")
            }
        }
        let merged = try Tool.hfr(["batch", "merge"] + reports)
        #expect(merged.status == 0, "\(merged.stderr)")
        for path in first {
            #expect(FileManager.default.contentsEqual(atPath: path, andPath: path + ".first"), "\(path) differs")
        }
        print("SlurmTests: task \(task) killed while writing \(part); the rerun redid only it")
    }
}

/// A joined output against one process's export of the same job.
enum SplitComparison {
    /// Frame count and duration equal; copied video: every video packet identical; audio: the same
    /// sample count and every audio packet identical (it is one piece). With `reference` (the job
    /// exported losslessly), each file's pictures are measured against it: the joined file's mean
    /// PSNR within 0.5 dB of the single's. Returns the PSNR figures.
    @discardableResult
    static func check(joined: String, single: String, copied: Bool, reference: String? = nil) throws -> String {
        let (a, b) = (try SplitTake.packets(joined), try SplitTake.packets(single))
        let video = { (p: [String]) in p.filter { $0.hasPrefix("packet,0,") } }
        let audio = { (p: [String]) in p.filter { $0.hasPrefix("packet,1,") } }
        #expect(video(a).count == video(b).count && !video(a).isEmpty, "\(video(a).count) \(video(b).count) frames")
        if copied { #expect(video(a) == video(b), "\(joined): a copied packet differs") }
        #expect(audio(a) == audio(b) && !audio(a).isEmpty, "\(joined): the audio differs")
        let durations = try [joined, single].map { path in
            try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).stdout
        }
        #expect(durations[0] == durations[1], "\(durations)")
        guard let reference else { return "" }
        let (joinedPSNR, singlePSNR) = (try psnr(joined, reference), try psnr(single, reference))
        #expect(joinedPSNR.count == singlePSNR.count)
        let mean = { (v: [Double]) in v.reduce(0, +) / Double(max(1, v.count)) }
        #expect(
            mean(joinedPSNR) >= mean(singlePSNR) - 0.5, "joined \(mean(joinedPSNR)) dB, single \(mean(singlePSNR)) dB")
        let worst = zip(singlePSNR, joinedPSNR).map { $0 - $1 }.max() ?? 0
        return String(
            format: "mean %.2f dB joined, %.2f dB one process; worst frame %.2f dB below", mean(joinedPSNR),
            mean(singlePSNR), worst)
    }

    /// The largest sample-to-sample step of the first audio channel within 10 ms of any of `seams`
    /// (output seconds), and everywhere else.
    static func audioSteps(_ path: String, seams: [Double]) throws -> (seams: Int, elsewhere: Int) {
        let raw = path + ".s16"
        let r = try Tool.run(
            "ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-map", "0:a:0", "-ac", "1", "-f", "s16le", raw])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let rate = 48_000.0
        let near = Set(seams.flatMap { t in Int((t - 0.01) * rate)...Int((t + 0.01) * rate) })
        var (atSeams, elsewhere) = (0, 0)
        for i in 1..<samples.count {
            let step = abs(Int(samples[i]) - Int(samples[i - 1]))
            if near.contains(i) { atSeams = max(atSeams, step) } else { elsewhere = max(elsewhere, step) }
        }
        return (atSeams, elsewhere)
    }

    /// Each picture's PSNR (the average over planes; identical pictures count 100 dB).
    static func psnr(_ path: String, _ reference: String) throws -> [Double] {
        let r = try Tool.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-i", path, "-i", reference, "-lavfi", "[0:v][1:v]psnr=stats_file=-", "-f",
                "null", "-",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }.map { field in
                let value = Double(field.dropFirst(9)) ?? 100
                return value.isFinite ? value : 100
            }
        }
    }
}
