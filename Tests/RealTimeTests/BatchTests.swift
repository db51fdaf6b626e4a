import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `hfr batch` over copies of the fixtures: outputs identical to single exports, failures that
/// stay alone, and reports CI tools read.
@Suite(.serialized) struct BatchTests {
    @Test func fortyJobsOnTwoWorkersMatchSingleExportsByteForByte() throws {
        let w = try BatchWorkspace.fortyJobWorkspace()
        let report = w.dir.path("report.json")
        let r = try w.batch([w.dir.path("batch.json"), "-j", "2", "--json-report", report])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let jobs = try w.reportJobs(report)
        #expect(jobs.count == 40)
        #expect(jobs.allSatisfy { $0["status"] as? String == "succeeded" })
        #expect(w.outputs().count == 40)
        #expect(r.stderr.contains("[40/40]"))
        // Each job again as a plain `hfr export`, into another folder: the same bytes.
        try FileManager.default.createDirectory(atPath: w.dir.path("alone"), withIntermediateDirectories: true)
        for job in jobs {
            let input = try #require(job["input"] as? String)
            let output = try #require(job["output"] as? String)
            let options = try #require(job["options"] as? [String])
            let alone = w.dir.path("alone/" + (output as NSString).lastPathComponent)
            let single = try Tool.hfr(["export", input, alone] + options)
            #expect(single.status == 0, "\(single.stderr)")
            let same = FileManager.default.contentsEqual(atPath: output, andPath: alone)
            #expect(same, "\(output) differs from a single export")
            #expect((job["frames"] as? Int ?? 0) > 0)
            #expect(
                job["outputBytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int))
        }
    }

    @Test func fourShardsAsFourProcessesCoverEveryJobOnce() throws {
        let w = try BatchWorkspace.fortyJobWorkspace()
        let manifest = w.dir.path("batch.json")
        let processes = try (1...4).map { k in
            try BackgroundProcess(
                Tool.hfrPath,
                ["batch", manifest, "--shard", "\(k)/4", "-j", "1", "--json-report", w.dir.path("shard\(k).json")],
                directory: w.dir)
        }
        var ids: [String] = []
        for (k, p) in processes.enumerated() {
            let r = p.wait()
            #expect(r.status == 0, "shard \(k + 1): \(r.stderr)")
            let jobs = try w.reportJobs(w.dir.path("shard\(k + 1).json"))
            #expect(jobs.count == 10, "shards differ by at most one job")
            ids += jobs.compactMap { $0["id"] as? String }
        }
        #expect(ids.count == 40)
        #expect(Set(ids).count == 40)
        #expect(w.outputs().count == 40)

        // The same manifest with its jobs in another order, and each CI's variables: the same shards.
        let entries = BatchWorkspace.fortyJobs.split(separator: "\n").filter { $0.contains("\"input\"") }.map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ","))
        }
        #expect(entries.count == 11)
        let shuffled = try w.manifest(
            "{ \"jobs\": [\n" + entries.reversed().joined(separator: ",\n") + "],\n \"schema\": \"hfr.batch/1\" }",
            name: "shuffled.json")
        func listed(_ r: ToolResult) -> Set<String> {
            Set(r.stdout.split(separator: "\n").dropFirst().map(String.init))
        }
        for k in 1...4 {
            let fixed = try w.batch([manifest, "--shard", "\(k)/4", "--dry-run"])
            #expect(fixed.status == 0, "\(fixed.stderr)")
            #expect(listed(fixed).count == 10)
            let reordered = try w.batch([shuffled, "--shard", "\(k)/4", "--dry-run"])
            #expect(listed(reordered) == listed(fixed))
            let environments: [(vars: [String: String], source: String)] = [
                (["CI_NODE_INDEX": "\(k)", "CI_NODE_TOTAL": "4", "GITLAB_CI": "true"], "CI_NODE_INDEX=\(k)"),
                (["CI_NODE_INDEX": "\(k - 1)", "CI_NODE_TOTAL": "4"], "counted from 0"),
                (["JOB_COMPLETION_INDEX": "\(k - 1)", "HFR_SHARD_TOTAL": "4"], "Kubernetes"),
                (["JOB_COMPLETION_INDEX": "\(k - 1)", "JOB_COMPLETIONS": "4"], "JOB_COMPLETIONS=4"),
                (["SLURM_ARRAY_TASK_ID": "\(k)", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"], "SLURM"),
            ]
            for (vars, source) in environments {
                let auto = try w.batch([manifest, "--shard", "auto", "--dry-run"], environment: vars)
                #expect(auto.status == 0, "\(vars): \(auto.stderr)")
                #expect(listed(auto) == listed(fixed), "\(vars)")
                #expect(auto.stderr.contains("shard \(k)/4 from") && auto.stderr.contains(source), "\(auto.stderr)")
            }
        }
        let none = try w.batch([manifest, "--shard", "auto"], environment: [:])
        #expect(none.status == 64)
        #expect(none.stderr.contains("no CI shard variables found"))
    }

    @Test func killedBatchResumesWithoutEverShowingAPartialOutput() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: (0..<20).map { String(format: "c%02d.mp4", $0) })
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [ { "input": "in/*.mp4", "output": "out/{stem}-slow.mp4", "conform": 30 } ] }
            """)
        // Watches out/ while the batches run: an output must be complete from the moment it has its name.
        let watcher = OutputWatcher(directory: w.dir.path("out"))
        watcher.start()
        let first = try BackgroundProcess(Tool.hfrPath, ["batch", manifest, "-j", "2"], directory: w.dir)
        let deadline = Date().addingTimeInterval(60)
        while Self.doneRecords(in: w).count < 6, Date() < deadline { usleep(20_000) }
        first.send(SIGKILL)
        _ = first.wait()
        #expect(first.wasSignalled)
        // Its running exports notice they are orphans and stop, removing their temporaries.
        let settled = Date().addingTimeInterval(10)
        while !w.temporaries().isEmpty, Date() < settled { usleep(20_000) }
        #expect(w.temporaries().isEmpty, "\(w.temporaries())")
        let done = Self.doneRecords(in: w)
        #expect(done.count >= 6 && done.count < 20, "killed after \(done.count) jobs")

        let report = w.dir.path("resume.json")
        let r = try w.batch([manifest, "-j", "2", "--resume", "--json-report", report])
        watcher.stop()
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let jobs = try w.reportJobs(report)
        let skipped = Set(jobs.filter { $0["status"] as? String == "skipped" }.compactMap { $0["output"] as? String })
        let redone = jobs.filter { $0["status"] as? String == "succeeded" }.count
        #expect(skipped == Set(done.map { w.dir.path("out/" + $0) }))
        #expect(skipped.count + redone == 20)
        #expect(w.outputs().count == 20)
        #expect(w.temporaries().isEmpty)
        for name in w.outputs() {
            let path = w.dir.path("out/" + name)
            #expect(try FFprobe.count(path, stream: "v:0", decoding: true) == 240, "\(name)")
            #expect(try MediaChecks.decodeErrors(path).isEmpty, "\(name)")
        }
        // Whatever the watcher saw under a final name had its final size already.
        #expect(!watcher.sizes.isEmpty)
        for (name, size) in watcher.sizes {
            let final = try FileManager.default.attributesOfItem(atPath: w.dir.path("out/" + name))[.size] as? Int
            #expect(final == size, "\(name) was seen at \(size) bytes, ends at \(final ?? -1)")
        }
    }

    /// Outputs whose record says done (relative to out/).
    static func doneRecords(in w: BatchWorkspace) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: w.dir.path("out"))) ?? []
        return names.filter { $0.hasSuffix(".hfr-batch.json") && !$0.hasPrefix(".") }.filter { name in
            let text = (try? String(contentsOfFile: w.dir.path("out/" + name), encoding: .utf8)) ?? ""
            return text.contains("\"state\":\"done\"")
        }.map { String($0.dropLast(".hfr-batch.json".count)) }.sorted()
    }

    @Test func threeBadInputsFailAloneAndTheJUnitReportReadsBack() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: (0..<17).map { String(format: "g%02d.mp4", $0) })
        try w.add("truncated.mp4", as: ["bad-truncated.mp4"])
        try w.add("not-media.mp4", as: ["bad-text.mp4"])
        try w.add("empty.mp4", as: ["bad-empty.mp4"])
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1", "defaults": { "audio": "mute" },
              "jobs": [ { "input": "in/*.mp4", "output": "out/{stem}.mp4", "conform": 30 } ] }
            """)
        let junit = w.dir.path("junit.xml")
        let json = w.dir.path("report.json")
        let r = try w.batch([manifest, "-j", "2", "--report", junit, "--json-report", json])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("3 of 20 jobs failed"))
        #expect(w.outputs().count == 17)
        let jobs = try w.reportJobs(json)
        #expect(jobs.filter { $0["status"] as? String == "failed" }.count == 3)
        #expect(jobs.filter { $0["status"] as? String == "succeeded" }.allSatisfy { ($0["frames"] as? Int) == 240 })

        // A real consumer (junitparser) and the schema (xmlschema) read the report.
        let python = "/var/cache/hfr-py/bin/python"
        #expect(
            FileManager.default.isExecutableFile(atPath: python),
            "the Python venv with junitparser is missing: run scripts/setup")
        let script = """
            import json, sys, junitparser, xmlschema
            xmlschema.XMLSchema(sys.argv[2]).validate(sys.argv[1])
            xml = junitparser.JUnitXml.fromfile(sys.argv[1])
            cases, failures = 0, []
            for suite in xml:
                for case in suite:
                    cases += 1
                    for result in case.result:
                        if isinstance(result, junitparser.Failure):
                            failures.append({"name": case.name, "message": result.message, "type": result.type})
            print(json.dumps({"suites": len(list(xml)), "cases": cases, "failures": failures,
                              "suiteFailures": xml.failures, "tests": xml.tests}))
            """
        let xsd = Fixtures.root.appendingPathComponent("Tests/EndToEndSupport/junit.xsd").path
        let read = try Tool.run(python, ["-c", script, junit, xsd])
        #expect(read.status == 0, "junitparser/xmlschema: \(read.stderr)")
        let parsed = try Tool.json(read.stdout)
        #expect(parsed["suites"] as? Int == 1)
        #expect(parsed["cases"] as? Int == 20)
        #expect(parsed["tests"] as? Int == 20)
        #expect(parsed["suiteFailures"] as? Int == 3)
        let failures = parsed["failures"] as? [[String: Any]] ?? []
        let messages = failures.compactMap { $0["message"] as? String }.sorted()
        #expect(messages.count == 3)
        #expect(messages.contains { $0.contains("bad-empty.mp4: empty file") }, "\(messages)")
        #expect(messages.contains { $0.contains("bad-text.mp4: not a media file") }, "\(messages)")
        #expect(messages.contains { $0.contains("bad-truncated.mp4") }, "\(messages)")
        #expect(failures.allSatisfy { ($0["type"] as? String)?.hasPrefix("exit ") == true })
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
    }

    @Test(arguments: [
        (
            "{ \"schema\": \"hfr.batch/1\",\n  \"jobs\": [ { \"input\": \"in/a.mp4\" \"output\": \"out/a.mp4\" } ] }",
            "2:",
            "invalid JSON"
        ),
        (
            "{ \"schema\": \"hfr.batch/1\",\n  \"jobs\": [\n    { \"input\": \"in/a.mp4\", \"output\": \"out/a.mp4\",\n"
                + "      \"slowmo\": 4 } ] }", "4:7: jobs[0].slowmo", "unknown hfr export option"
        ),
        (
            "{ \"schema\": \"hfr.batch/1\",\n  \"jobs\": [\n    { \"input\": \"in/a.mp4\", \"output\": \"out/a.mp4\", \"conform\": 30 },\n"
                + "    { \"input\": \"in/missing.mp4\", \"output\": \"out/m.mp4\", \"conform\": 30 } ] }",
            "4:16: jobs[1].input", "No such file"
        ),
        (
            "{ \"schema\": \"hfr.batch/1\",\n  \"jobs\": [\n    { \"input\": \"in/*.mp4\", \"output\": \"out/all.mp4\", \"conform\": 30 } ] }",
            "3:38: jobs[0].output", "put {stem} or {name} in it"
        ),
        (
            "{ \"schema\": \"hfr.batch/1\",\n  \"jobs\": [\n    { \"input\": \"in/a.mp4\", \"output\": \"out/x.mp4\", \"conform\": 30 },\n"
                + "    { \"input\": \"in/b.mp4\", \"output\": \"out/x.mp4\", \"fps\": 30 } ] }",
            "4:38: jobs[1].output", "also written by jobs[0] (line 3)"
        ),
        (
            "{ \"schema\": \"hfr.batch/1\",\n  \"jobs\": [\n    { \"input\": \"in/a.mp4\", \"output\": \"out/a.mp4\",\n"
                + "      \"ramp\": \"0-2@1,1-3@0.5\" } ] }", "4:15: jobs[0].ramp", "--ramp 0-2@1,1-3@0.5"
        ),
    ])
    func badManifestsAreRefusedBeforeAnyJobRuns(text: String, location: String, message: String) throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4", "b.mp4"])
        let manifest = try w.manifest(text)
        let r = try w.batch([manifest, "--report", w.dir.path("junit.xml")])
        #expect(r.status == 64)
        let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Error: \(manifest):\(location)"), "\(first)")
        #expect(first.contains(message), "\(first)")
        // Nothing ran: no output folder, no report.
        #expect(try w.dir.contents() == ["batch.json", "in"])
    }

    @Test func aCrashingJobFailsAloneAndOutputsAreNotReplacedWithoutConsent() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4", "b.mp4", "crash.mp4"])
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [ { "input": "in/*.mp4", "output": "out/{stem}.mp4", "conform": 30, "audio": "mute" } ] }
            """)
        // Each job runs this wrapper, which crashes (SIGSEGV) on one input and runs hfr otherwise.
        let wrapper = w.dir.path("hfr-wrapper")
        try "#!/bin/sh\ncase \"$2\" in *crash*) kill -SEGV $$ ;; esac\nexec \"\(Tool.hfrPath)\" \"$@\"\n".write(
            toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let json = w.dir.path("report.json")
        let r = try w.batch(
            [manifest, "-j", "2", "--json-report", json],
            environment: ["HFR_BATCH_EXECUTABLE": wrapper])
        #expect(r.status == 1)
        #expect(w.outputs() == ["a.mp4", "b.mp4"])
        let crashed = try w.reportJobs(json).first { ($0["input"] as? String)?.contains("crash") == true }
        #expect(crashed?["status"] as? String == "failed")
        #expect(crashed?["signal"] as? Int == 11)
        #expect((crashed?["error"] as? String)?.contains("SIGSEGV") == true)

        // An output the batch did not write is kept unless --force.
        try FileManager.default.removeItem(atPath: w.dir.path("out/a.mp4.hfr-batch.json"))
        let again = try w.batch([manifest, "--resume"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("out/a.mp4: already exists and was not written by hfr batch"))
        let forced = try w.batch([manifest, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(w.outputs() == ["a.mp4", "b.mp4", "crash.mp4"])
    }

    @Test func anInterruptedExportIsCancelledNotFailed() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4", "stop.mp4"])
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [ { "input": "in/*.mp4", "output": "out/{stem}.mp4", "conform": 30, "audio": "mute" } ] }
            """)
        // Each job runs this wrapper, which on one input ends as an interrupted export does (exit
        // 130, its error line) and runs hfr otherwise. The batch itself is never stopped.
        let wrapper = w.dir.path("hfr-wrapper")
        let interrupted = "echo 'Error: '\"$3\"': interrupted; nothing written' >&2; exit 130"
        try "#!/bin/sh\ncase \"$2\" in *stop*) \(interrupted) ;; esac\nexec \"\(Tool.hfrPath)\" \"$@\"\n".write(
            toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let json = w.dir.path("report.json")
        let junit = w.dir.path("junit.xml")
        let r = try w.batch(
            [manifest, "-j", "2", "--json-report", json, "--report", junit],
            environment: ["HFR_BATCH_EXECUTABLE": wrapper])
        // README: exit 1 when a job did not finish.
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("1 done, 0 up to date, 0 failed, 1 not done"), "\(r.stderr)")
        #expect(r.stderr.contains("1 of 2 jobs were cancelled; first: "), "\(r.stderr)")
        #expect(w.outputs() == ["a.mp4"])
        #expect(w.temporaries().isEmpty)
        let stopped = try w.reportJobs(json).first { ($0["input"] as? String)?.contains("stop") == true }
        #expect(stopped?["status"] as? String == "cancelled")
        #expect(stopped?["exitCode"] as? Int == 130)
        #expect((stopped?["error"] as? String)?.hasSuffix("stop.mp4: interrupted; nothing written") == true)
        let totals = try Tool.json(String(contentsOfFile: json, encoding: .utf8))["totals"] as? [String: Any]
        #expect(totals?["cancelled"] as? Int == 1)
        #expect(totals?["failed"] as? Int == 0)
        // In JUnit a cancelled job is a skipped testcase, not a failure.
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\""))
        #expect(xml.contains("<skipped message=\"cancelled while running: the export was interrupted\"/>"))
        #expect(!xml.contains("<failure "))
        // Nothing was written for it, so no resume record claims it.
        #expect(!FileManager.default.fileExists(atPath: w.dir.path("out/stop.mp4.hfr-batch.json")))
    }

    @Test func interruptStopsTheExportsAndStillWritesTheReports() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: (0..<12).map { "c\($0).mp4" })
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [ { "input": "in/*.mp4", "output": "out/{stem}.mp4", "ramp": "0-1@1,1-@0.25" } ] }
            """)
        let junit = w.dir.path("junit.xml")
        let batch = try BackgroundProcess(
            Tool.hfrPath, ["batch", manifest, "-j", "2", "--report", junit], directory: w.dir)
        let deadline = Date().addingTimeInterval(30)
        while Self.doneRecords(in: w).count < 2, Date() < deadline { usleep(20_000) }
        batch.send(SIGINT)
        let r = batch.wait()
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("interrupted"))
        #expect(w.temporaries().isEmpty)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count == 13)
        #expect(xml.contains("not run") || xml.contains("cancelled"))
        for name in w.outputs() {
            #expect(try MediaChecks.decodeErrors(w.dir.path("out/" + name)).isEmpty)
        }
    }
}

/// Polls a folder and remembers the size of each output the first time it is seen under its name.
final class OutputWatcher: @unchecked Sendable {
    let directory: String
    private let lock = NSLock()
    private var seen: [String: Int] = [:]
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    init(directory: String) { self.directory = directory }

    var sizes: [String: Int] { lock.withLock { seen } }

    func start() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                for name in names where name.hasSuffix(".mp4") && !name.hasPrefix(".") {
                    guard lock.withLock({ seen[name] == nil }) else { continue }
                    let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
                    if let size = attributes?[.size] as? Int { lock.withLock { seen[name] = size } }
                }
                usleep(5_000)
            }
            finished.signal()
        }
    }

    func stop() {
        lock.withLock { running = false }
        finished.wait()
    }
}

/// The example manifest and --fail-fast.
struct BatchExampleTests {
    @Test func theExampleManifestIsValidAsPrinted() throws {
        let w = try BatchWorkspace()
        let example = try w.batch(["--example"])
        #expect(example.status == 0)
        try FileManager.default.createDirectory(atPath: w.dir.path("recordings"), withIntermediateDirectories: true)
        for name in ["a.mp4", "jump.mp4"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.path("layered-120fps.mp4"), toPath: w.dir.path("recordings/\(name)"))
        }
        let manifest = try w.manifest(example.stdout)
        let r = try w.batch([manifest, "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        // Five jobs, and the split one as two video parts (the 2 s fixture has two keyframes) and its rest.
        #expect(r.stdout.split(separator: "\n").count == 1 + 5 + 3, "\(r.stdout)")
        #expect(r.stderr.contains("jobs[3].split: recordings/jump.mp4 has keyframes for 2 parts of its range, not 4"))
    }

    @Test(arguments: [
        (["missing.json"], "missing.json: no such file"),
        (["in"], "in: is a directory, not a manifest"),
        (["batch.json", "--report", "nowhere/junit.xml"], "nowhere/junit.xml: directory "),
        (["batch.json", "--json-report", "nowhere/report.json"], "nowhere/report.json: directory "),
    ])
    func unreadableManifestsAndUnwritableReportsAreIOErrors(arguments: [String], message: String) throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4"])
        try w.manifest(
            """
            { "schema": "hfr.batch/1", "jobs": [ { "input": "in/a.mp4", "output": "out/a.mp4", "conform": 30 } ] }
            """)
        let r = try w.batch(arguments.map { $0.hasPrefix("--") ? $0 : w.dir.path($0) })
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: \(w.dir.path(message))"), "\(r.stderr)")
        // Checked before any job runs.
        #expect(w.outputs().isEmpty)
    }

    @Test func failFastStopsAtTheFirstFailure() throws {
        let w = try BatchWorkspace()
        try w.add("not-media.mp4", as: ["a-bad.mp4"])
        try w.add("layered-120fps.mp4", as: (0..<6).map { "b\($0).mp4" })
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [ { "input": "in/*.mp4", "output": "out/{stem}.mp4", "fps": 30 } ] }
            """)
        let json = w.dir.path("report.json")
        let r = try w.batch([manifest, "-j", "1", "--fail-fast", "--json-report", json])
        #expect(r.status == 1)
        let statuses = try w.reportJobs(json).compactMap { $0["status"] as? String }
        #expect(statuses == ["failed"] + Array(repeating: "not-run", count: 6))
        #expect(w.outputs().isEmpty)
    }
}
