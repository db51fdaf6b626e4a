import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `hfr batch --shard auto` under a real Slurm: a 4-task job array submitted with the job script
/// the README shows (docs/slurm/hfr-array.sbatch), a task cancelled mid-shard and resubmitted with
/// `--resume`, and the shards' reports merged into one JUnit file.
@Suite(.serialized) struct SlurmTests {
    static let jobScript = Fixtures.root.appendingPathComponent("docs/slurm/hfr-array.sbatch").path
    static let hfrDirectory = (Tool.hfrPath as NSString).deletingLastPathComponent

    @Test func fortyJobsOverAFourTaskArrayACancelledTaskResumedAndOneMergedReport() throws {
        let w = try BatchWorkspace.fortyJobWorkspace()
        let cluster = try SlurmCluster(directory: w.dir.path("slurm"))
        defer {
            cluster.stop()
            #expect(cluster.leftoverProcesses().isEmpty, "daemons left: \(cluster.leftoverProcesses())")
            print(
                "SlurmTests: Slurm started in \(cluster.startSeconds) s, stopped in \(cluster.stopSeconds) s\n\(cluster.stopLog)"
            )
        }
        var clock = Date()
        let first = try runWholeArray(w, cluster)
        print("SlurmTests: the array and 40 standalone exports took \(Date().timeIntervalSince(clock)) s")
        clock = Date()
        try FileManager.default.createDirectory(atPath: w.dir.path("first"), withIntermediateDirectories: true)
        for k in 1...4 {
            try FileManager.default.copyItem(atPath: report(w, k), toPath: w.dir.path("first/shard-\(k).json"))
        }
        try cancelAndResume(w, cluster, standalone: first)
        print("SlurmTests: cancel and resume took \(Date().timeIntervalSince(clock)) s")
        try mergeReports(w)
    }

    /// A Slurm that cannot start is an error with the reason, never a skip; nothing is left running.
    @Test func aSlurmThatCannotStartFailsTheTest() throws {
        let dir = try TemporaryDirectory()
        // slurmd, slurmctld and munged live in /usr/sbin: without it the harness cannot start them.
        #expect {
            _ = try SlurmCluster(directory: dir.path("slurm"), path: "/usr/bin:/bin")
        } throws: { error in
            "\(error)".contains("Slurm did not start") && "\(error)".contains("munged is not installed")
        }
        let cluster = try SlurmCluster(directory: dir.path("slurm"))
        cluster.stop()
        #expect(cluster.leftoverProcesses().isEmpty)
    }

    /// `sbatch --array=1-4` of the job script; every task names Slurm as its shard's source, the
    /// union of the outputs is the 40 jobs once each, each as a standalone `hfr export` makes it.
    /// Returns the standalone exports' folder.
    func runWholeArray(_ w: BatchWorkspace, _ cluster: SlurmCluster) throws -> String {
        let job = try submit(w, cluster)
        #expect(try cluster.wait(for: job, timeout: 300), "the array did not finish")
        var ids: [String] = []
        for k in 1...4 {
            let log = (try? taskLog(w, job: job, task: k)) ?? "(no log)"
            try #require(FileManager.default.fileExists(atPath: report(w, k)), "task \(k) wrote no report: \(log)")
            let json = try Tool.json(String(contentsOfFile: report(w, k), encoding: .utf8))
            let source = (json["shard"] as? [String: Any])?["source"] as? String ?? ""
            #expect(source.contains("SLURM_ARRAY_TASK_ID=\(k) SLURM_ARRAY_TASK_COUNT=4"), "task \(k): \(source)")
            #expect(source.hasSuffix("(Slurm job array)"), "task \(k): \(source)")
            #expect(log.contains("batch: shard \(k)/4 from SLURM_ARRAY_TASK_ID=\(k)"), "task \(k) printed: \(log)")
            let jobs = try w.reportJobs(report(w, k))
            #expect(jobs.allSatisfy { $0["status"] as? String == "succeeded" }, "task \(k): \(log)")
            ids += jobs.compactMap { $0["id"] as? String }
        }
        #expect(ids.count == 40 && Set(ids).count == 40)
        #expect(w.outputs().count == 40)
        let alone = w.dir.path("alone")
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        for k in 1...4 {
            for job in try w.reportJobs(report(w, k)) {
                // Paths relative to the job's directory (the manifest was given as batch.json).
                let input = w.dir.path(try #require(job["input"] as? String))
                let output = w.dir.path(try #require(job["output"] as? String))
                let options = try #require(job["options"] as? [String])
                let single = alone + "/" + (output as NSString).lastPathComponent
                let r = try Tool.hfr(["export", input, single] + options)
                #expect(r.status == 0, "\(r.stderr)")
                #expect(FileManager.default.contentsEqual(atPath: output, andPath: single), "\(output) differs")
            }
        }
        return alone
    }

    /// Task 3's outputs removed, the array submitted again; task 3 cancelled (`scancel JOB_3`) once
    /// its first job is done: no temporary file anywhere. Submitted again: only task 3's remaining
    /// jobs run, everything else is skipped, and every output is again a standalone export's bytes.
    func cancelAndResume(_ w: BatchWorkspace, _ cluster: SlurmCluster, standalone: String) throws {
        let third = try w.reportJobs(report(w, 3)).compactMap { $0["output"] as? String }.map(w.dir.path)
        #expect(third.count == 10)
        for output in third {
            try FileManager.default.removeItem(atPath: output)
            try FileManager.default.removeItem(atPath: output + ".hfr-batch.json")
        }
        let job = try submit(w, cluster)
        let firstDone = try #require(waitForDoneRecord(of: third, timeout: 120), "task 3 finished no job")
        let cancel = try cluster.client("scancel", ["\(job)_3"])
        #expect(cancel.status == 0, "scancel: \(cancel.stderr)")
        #expect(try cluster.wait(for: job, timeout: 120), "the array did not end")
        #expect(temporaries(under: w.dir.path(".")).isEmpty, "left behind: \(temporaries(under: w.dir.path(".")))")
        let cancelled = try w.reportJobs(report(w, 3))
        let done = Set(cancelled.filter { $0["status"] as? String == "succeeded" }.compactMap { $0["id"] as? String })
        #expect(done.count >= 1 && done.count < 10, "task 3 was cancelled after \(done.count) jobs (\(firstDone))")
        print("SlurmTests: task 3 cancelled after \(done.count) of 10 jobs")
        for job in cancelled where !done.contains(job["id"] as? String ?? "") {
            #expect(["cancelled", "not-run"].contains(job["status"] as? String ?? ""), "\(job)")
            #expect(!FileManager.default.fileExists(atPath: w.dir.path(job["output"] as? String ?? "")))
        }
        // Merged as it is, the cancelled shard makes the merge exit 1 (the reports still written).
        let interrupted = try Tool.hfr(
            ["batch", "merge"] + (1...4).map { report(w, $0) } + ["--report", w.dir.path("interrupted.xml")])
        #expect(interrupted.status == 1, "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("not done"), "\(interrupted.stderr)")

        let again = try submit(w, cluster)
        #expect(try cluster.wait(for: again, timeout: 300), "the resubmitted array did not finish")
        for k in 1...4 {
            let jobs = try w.reportJobs(report(w, k))
            let ran = jobs.filter { $0["status"] as? String == "succeeded" }.compactMap { $0["id"] as? String }
            let skipped = jobs.filter { $0["status"] as? String == "skipped" }.compactMap { $0["id"] as? String }
            if k == 3 {
                #expect(Set(skipped) == done, "task 3 skipped \(skipped.count), \(done.count) were done")
                #expect(ran.count == 10 - done.count && Set(ran).isDisjoint(with: done))
            } else {
                #expect(skipped.count == 10 && ran.isEmpty, "task \(k) ran \(ran.count) jobs again")
            }
        }
        #expect(w.outputs().count == 40)
        for output in third {
            let single = standalone + "/" + (output as NSString).lastPathComponent
            #expect(FileManager.default.contentsEqual(atPath: output, andPath: single), "\(output) differs")
        }
    }

    /// `hfr batch merge` of the first run's four reports: one JUnit file junitparser reads as 40
    /// cases and the schema accepts; a missing, duplicated or foreign shard report: exit 65 naming it.
    func mergeReports(_ w: BatchWorkspace) throws {
        let reports = (1...4).map { w.dir.path("first/shard-\($0).json") }
        let junit = w.dir.path("merged.xml")
        let json = w.dir.path("merged.json")
        let r = try Tool.hfr(["batch", "merge"] + reports + ["--report", junit, "--json-report", json])
        #expect(r.status == 0, "\(r.stderr)")
        let read = try JUnitCheck.read(junit)
        #expect(read["cases"] as? Int == 40 && read["tests"] as? Int == 40 && read["suites"] as? Int == 4)
        #expect(read["suiteFailures"] as? Int == 0)
        let merged = try Tool.json(String(contentsOfFile: json, encoding: .utf8))
        #expect((merged["jobs"] as? [[String: Any]])?.count == 40)
        #expect((merged["totals"] as? [String: Any])?["succeeded"] as? Int == 40)
        try DocSchema(file: "batch-manifest.md", section: "## `hfr batch merge --json-report FILE`").check(
            merged, "merged report")

        let missing = try Tool.hfr(["batch", "merge", reports[0], reports[2], reports[3], "--report", junit + "2"])
        #expect(missing.status == 65 && missing.stderr.contains("shard 2/4 missing"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: junit + "2"))
        let copy = w.dir.path("copy-of-shard-2.json")
        try FileManager.default.copyItem(atPath: reports[1], toPath: copy)
        let twice = try Tool.hfr(["batch", "merge"] + reports + [copy])
        #expect(twice.status == 65, "\(twice.stderr)")
        #expect(twice.stderr.contains("shard 2/4 is there twice: \(reports[1]) and \(copy)"), "\(twice.stderr)")
        // A real shard of another manifest.
        let other = try w.manifest(
            "{\"schema\": \"hfr.batch/1\", \"jobs\": [{\"input\": \"in/x0.mp4\", \"output\": \"o/{stem}.mp4\", \"conform\": 30}]}",
            name: "other.json")
        let foreign = w.dir.path("other-4.json")
        let ran = try Tool.hfr(["batch", other, "--shard", "4/4", "--json-report", foreign])
        #expect(ran.status == 0, "\(ran.stderr)")
        let mixed = try Tool.hfr(["batch", "merge"] + reports.prefix(3) + [foreign])
        #expect(mixed.status == 65 && mixed.stderr.contains("\(foreign) is from another manifest"), "\(mixed.stderr)")
    }

    /// `sbatch --array=1-4` of the README's job script in the workspace for `manifest`, one CPU (so
    /// one export) per task; the array's job id.
    func submit(_ w: BatchWorkspace, _ cluster: SlurmCluster, manifest: String = "batch.json") throws -> String {
        let r = try cluster.client(
            "sbatch",
            [
                "--parsable", "--array=1-4", "--cpus-per-task=1", "--chdir", w.dir.path("."),
                "--export=ALL,MANIFEST=\(manifest)", Self.jobScript,
            ],
            path: Self.hfrDirectory)
        #expect(r.status == 0, "sbatch: \(r.stderr)")
        return try #require(
            r.stdout.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    func report(_ w: BatchWorkspace, _ task: Int) -> String { w.dir.path("reports/shard-\(task).json") }

    func taskLog(_ w: BatchWorkspace, job: String, task: Int) throws -> String {
        try String(contentsOfFile: w.dir.path("slurm-\(job)_\(task).log"), encoding: .utf8)
    }

    /// The first of `outputs` whose record says done, polled; nil after `timeout` seconds.
    func waitForDoneRecord(of outputs: [String], timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for output in outputs {
                guard let data = FileManager.default.contents(atPath: output + ".hfr-batch.json") else { continue }
                if String(decoding: data, as: UTF8.self).contains("\"state\":\"done\"") { return output }
            }
            usleep(20_000)
        }
        return nil
    }

    /// Temporary and partial files anywhere under `directory` (Slurm's own state excepted).
    func temporaries(under directory: String) -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasPrefix("slurm/") }.filter { name in
            let file = (name as NSString).lastPathComponent
            return file.hasSuffix(".tmp") || file.contains(".partial") || file.contains(".hfr-tmp")
        }
    }
}
