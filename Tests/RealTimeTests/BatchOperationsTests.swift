import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Issue 46, parts 3 and 4: retries with kept logs, a job of a dead batch redone on `--resume`,
/// `batch status` while shards run, `batch failed` and `batch matrix`. The test hook
/// (`BatchWorkspace.hookedExecutable`) makes a first attempt fail and holds a job running.
@Suite(.serialized) struct BatchOperationsTests {
    static let manifest = """
        { "schema": "hfr.batch/1",
          "jobs": [ { "input": "in/*.mp4", "output": "out/{stem}.mp4", "conform": 30, "audio": "mute" } ] }
        """

    static func job(_ jobs: [[String: Any]], _ name: String) -> [String: Any] {
        jobs.first { ($0["input"] as? String)?.hasSuffix("/" + name) == true } ?? [:]
    }

    @Test func aJobThatFailsOnceIsRetriedAndTheLogOfEachAttemptIsKept() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4", "flaky.mp4"])
        try w.add("not-media.mp4", as: ["bad.mp4"])
        let manifest = try w.manifest(Self.manifest)
        let json = w.dir.path("report.json")
        let junit = w.dir.path("junit.xml")
        let logs = w.dir.path("logs")
        let r = try w.batch(
            [manifest, "-j", "2", "--retries", "2", "--logs", logs, "--json-report", json, "--report", junit],
            environment: ["HFR_BATCH_EXECUTABLE": try w.hookedExecutable()])
        // The bad input fails (exit 65 is not retried: it would fail the same way); the flaky one passes.
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("retrying in/flaky.mp4 → out/flaky.mp4 --conform 30 --audio mute (attempt 2)"))
        #expect(w.outputs() == ["a.mp4", "flaky.mp4"])
        let jobs = try w.reportJobs(json)
        let flaky = Self.job(jobs, "flaky.mp4")
        #expect(flaky["status"] as? String == "succeeded")
        #expect(flaky["attempts"] as? Int == 2)
        let history = try #require(flaky["history"] as? [[String: Any]])
        #expect(history.map { $0["outcome"] as? String } == ["failed", "succeeded"])
        #expect(history.map { $0["exitCode"] as? Int } == [1, 0])
        let id = try #require(flaky["id"] as? String)
        #expect(history.map { $0["log"] as? String } == ["\(logs)/\(id)-1.log", "\(logs)/\(id)-2.log"])
        let first = try String(contentsOfFile: "\(logs)/\(id)-1.log", encoding: .utf8)
        #expect(first.contains("test hook: the first attempt fails"))
        #expect(first.contains("export \(w.dir.path("in/flaky.mp4")) \(w.dir.path("out/flaky.mp4")) --conform 30"))
        #expect(first.hasSuffix("# failed: exit 1 after 0.0 s\n") || first.contains("# failed: exit 1 after "))
        let second = try String(contentsOfFile: "\(logs)/\(id)-2.log", encoding: .utf8)
        #expect(second.contains("Exported "), "\(second)")
        let bad = Self.job(jobs, "bad.mp4")
        #expect(bad["attempts"] as? Int == 1)
        #expect(Self.job(jobs, "a.mp4")["attempts"] as? Int == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: logs).count == 4)

        // The JUnit report names the logs in <system-out>, and stays valid.
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("attempt 1: failed, exit 1"))
        #expect(xml.contains("[[ATTACHMENT|\(logs)/\(id)-1.log]]\n[[ATTACHMENT|\(logs)/\(id)-2.log]]"))
        let python = "/var/cache/hfr-py/bin/python"
        let xsd = Fixtures.root.appendingPathComponent("Tests/EndToEndSupport/junit.xsd").path
        let script = """
            import sys, junitparser, xmlschema
            xmlschema.XMLSchema(sys.argv[2]).validate(sys.argv[1])
            for suite in junitparser.JUnitXml.fromfile(sys.argv[1]):
                for case in suite:
                    if "flaky" in case.name: print(case.system_out)
            """
        let read = try Tool.run(python, ["-c", script, junit, xsd])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("attempt 2: succeeded"), "\(read.stdout)")
    }

    @Test func statusFollowsARunningBatchAndFailedListsExactlyTheBadJobs() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4", "b.mp4", "hold.mp4"])
        try w.add("not-media.mp4", as: ["bad-1.mp4"])
        try w.add("empty.mp4", as: ["bad-2.mp4"])
        let manifest = try w.manifest(Self.manifest)
        let json = w.dir.path("report.json")
        // One worker, jobs in name order: a, b, bad-1, bad-2, then hold, which waits for the gate.
        let batch = try w.hookedBatch([manifest, "-j", "1", "--json-report", json])
        func status() throws -> (ToolResult, [String]) {
            let r = try Tool.hfr(["batch", "status", json])
            let row = r.stdout.split(separator: "\n").first { $0.hasPrefix("1/1 ") }
            return (r, row.map { $0.split(separator: " ").map(String.init) } ?? [])
        }
        // shard, state, done, failed, stopped, running, pending, jobs, ETA, host, updated.
        var seen: [[String]] = []
        let reached = try w.wait {
            let (_, row) = try status()
            if !row.isEmpty, seen.last.map({ Array($0[1...7]) }) != Array(row[1...7]) { seen.append(row) }
            // Both bad inputs failed, the held job running: the state the gate keeps.
            return row.count > 7 && row[2] == "2" && row[3] == "2" && row[5] == "1"
        }
        #expect(reached, "status never showed the held job running: \(seen)")
        let (during, row) = try status()
        #expect(during.status == 1, "\(during.stdout)")
        #expect(during.stderr.contains("1 of 1 shards not finished: 1/1 running"))
        #expect(Array(row[1...7]) == ["running", "2", "2", "0", "1", "0", "5"], "\(during.stdout)")
        #expect(row[8].contains(":"), "an ETA once jobs have ended: \(during.stdout)")
        // A report written while the shard runs is not merged.
        let partial = w.dir.path("partial.json")
        try FileManager.default.copyItem(atPath: json, toPath: partial)
        let merge = try Tool.hfr(["batch", "merge", partial])
        #expect(merge.status == 65)
        #expect(merge.stderr.contains("shard 1/1 has not finished"), "\(merge.stderr)")

        w.openGate()
        #expect(batch.wait().status == 1)
        let (after, done) = try status()
        #expect(after.status == 0, "\(after.stderr)")
        #expect(Array(done[1...7]) == ["finished", "3", "2", "0", "0", "0", "5"], "\(after.stdout)")
        seen.append(done)
        // The progress moved: from fewer done to all, the running count back to 0.
        #expect(seen.count >= 2)
        #expect(seen.map { Int($0[2]) ?? -1 } == seen.map { Int($0[2]) ?? -1 }.sorted())

        // Exactly the two bad inputs, as a manifest that runs as is from another directory.
        let failed = try Tool.hfr(["batch", "failed", json])
        #expect(failed.status == 0, "\(failed.stderr)")
        #expect(failed.stderr.contains("2 of 5 jobs to run again"))
        let rerun = try Tool.json(failed.stdout)
        let listed = try #require(rerun["jobs"] as? [[String: Any]])
        #expect(
            listed.compactMap { $0["input"] as? String } == [w.dir.path("in/bad-1.mp4"), w.dir.path("in/bad-2.mp4")])
        #expect(listed.allSatisfy { $0["conform"] as? String == "30" && $0["audio"] as? String == "mute" })
        try FileManager.default.createDirectory(atPath: w.dir.path("elsewhere"), withIntermediateDirectories: true)
        let again = try w.manifest(failed.stdout, name: "elsewhere/rerun.json")
        let second = w.dir.path("second.json")
        let r = try w.batch([again, "--json-report", second])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("2 of 2 jobs failed"), "\(r.stderr)")
        let secondJobs = try w.reportJobs(second)
        #expect(secondJobs.map { $0["exitCode"] as? Int } == [65, 65])
        // From the report written while it ran: the running job too, with a note; listed once.
        let unfinished = try Tool.hfr(["batch", "failed", partial, partial])
        #expect(unfinished.status == 0)
        #expect(unfinished.stderr.contains("partial.json is not finished"), "\(unfinished.stderr)")
        let inputs = try #require(try Tool.json(unfinished.stdout)["jobs"] as? [[String: Any]]).compactMap {
            ($0["input"] as? String).map { ($0 as NSString).lastPathComponent }
        }
        #expect(inputs == ["bad-1.mp4", "bad-2.mp4", "hold.mp4"])
        // Nothing failed: nothing printed, exit 1 (as grep finding nothing).
        let none = try Tool.hfr(["batch", "failed", try Self.succeeded(w)])
        #expect(none.status == 1 && none.stdout.isEmpty)
        #expect(none.stderr.contains("no failed job in 1 reports (1 jobs)"), "\(none.stderr)")
    }

    /// The report of a batch whose one job succeeded.
    static func succeeded(_ w: BatchWorkspace) throws -> String {
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1", "jobs": [ { "input": "in/a.mp4", "output": "ok/a.mp4", "conform": 30 } ] }
            """, name: "ok.json")
        let report = w.dir.path("ok-report.json")
        #expect(try w.batch([manifest, "--json-report", report]).status == 0)
        return report
    }

    @Test func aJobOfABatchThatDiedIsRedoneOnceOnResume() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4", "hold.mp4"])
        let manifest = try w.manifest(Self.manifest)
        let logs = w.dir.path("logs")
        let record = w.dir.path("out/hold.mp4.hfr-batch.json")
        let batch = try w.hookedBatch([manifest, "-j", "2", "--logs", logs])
        let claimed = w.wait {
            let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
            return text.contains("\"state\":\"running\"") && BatchTests.doneRecords(in: w) == ["a.mp4"]
        }
        #expect(claimed)
        batch.send(SIGKILL)
        _ = batch.wait()
        let claim = try #require(
            try Tool.json(String(contentsOfFile: record, encoding: .utf8))["claim"] as? [String: Any])
        #expect(claim["pid"] as? Int == Int(batch.process.processIdentifier))
        #expect(claim["attempt"] as? Int == 1 && claim["abandoned"] as? Int == 0)
        let deadRecord = try String(contentsOfFile: record, encoding: .utf8)

        // The dead batch's job is redone (its log kept, the numbering continued); the other is up to date.
        w.openGate()
        let json = w.dir.path("report.json")
        let r = try w.batch(
            [manifest, "--resume", "--logs", logs, "--json-report", json],
            environment: ["HFR_BATCH_EXECUTABLE": try w.hookedExecutable()])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains("the batch running it died (pid \(batch.process.processIdentifier) on "), "\(r.stderr)")
        let jobs = try w.reportJobs(json)
        #expect(Self.job(jobs, "a.mp4")["status"] as? String == "skipped")
        let hold = Self.job(jobs, "hold.mp4")
        #expect(hold["status"] as? String == "succeeded")
        #expect(hold["attempts"] as? Int == 2)
        let history = try #require(hold["history"] as? [[String: Any]])
        #expect(history.map { $0["outcome"] as? String } == ["abandoned", "succeeded"])
        let id = try #require(hold["id"] as? String)
        #expect(history.map { $0["log"] as? String } == ["\(logs)/\(id)-1.log", "\(logs)/\(id)-2.log"])
        #expect(FileManager.default.fileExists(atPath: "\(logs)/\(id)-1.log"))
        #expect(w.outputs() == ["a.mp4", "hold.mp4"])

        // Once only: a job whose redo died too is not redone again with --resume.
        try deadRecord.replacingOccurrences(of: "\"abandoned\":0", with: "\"abandoned\":1").write(
            toFile: record, atomically: true, encoding: .utf8)
        let twice = try w.batch([manifest, "--resume"])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("out/hold.mp4: 2 batches died running it"), "\(twice.stderr)")
        // A claim whose batch lives (this test process, on this host) is left to it.
        let alive = deadRecord.replacingOccurrences(
            of: "\"pid\":\(batch.process.processIdentifier)", with: "\"pid\":\(getpid())")
        try alive.replacing(#/"pidStart":\d+,/#, with: "").write(
            toFile: record, atomically: true, encoding: .utf8)
        let left = try w.batch([manifest, "--resume"])
        #expect(left.status == 1)
        #expect(left.stderr.contains("another batch is making it (pid \(getpid()) on "), "\(left.stderr)")
        #expect(left.stderr.contains("1 of 2 jobs were left to other batches; first: out/hold.mp4"), "\(left.stderr)")
    }

    @Test func theMatrixFitsTheLegLimitAndItsShardsCoverEveryJob() throws {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: ["a.mp4", "b.mp4", "c.mp4"])
        let manifest = try w.manifest(Self.manifest)
        let all = try Tool.hfr(["batch", "matrix", manifest])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout == "{\"shard\":[\"1/3\",\"2/3\",\"3/3\"]}\n")
        let two = try Tool.hfr(["batch", "matrix", manifest, "--max", "2"])
        let shards = try #require(try Tool.json(two.stdout)["shard"] as? [String])
        #expect(shards == ["1/2", "2/2"])
        var listed: [String] = []
        for shard in shards {
            let r = try w.batch([manifest, "--shard", shard, "--dry-run"])
            #expect(r.status == 0, "\(r.stderr)")
            listed += r.stdout.split(separator: "\n").dropFirst().map(String.init)
        }
        #expect(listed.count == 3 && Set(listed).count == 3)
        #expect(try Tool.hfr(["batch", "matrix", manifest, "--max", "0"]).status == 64)
    }
}
