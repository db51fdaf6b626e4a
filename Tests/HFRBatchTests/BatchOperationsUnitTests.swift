import Foundation
import HFRMedia
import Testing

@testable import HFRBatch

/// Claims, the ETA of `batch status`, the rerun manifest's options and the JUnit `<system-out>`.
struct BatchOperationsUnitTests {
    static let job = BatchJob(
        input: "/w/in/a.mp4", output: "/w/out/a.mp4", options: ["--conform", "30"], manifestInput: "in/a.mp4",
        manifestOutput: "out/a.mp4", entry: 0, line: 3)

    @Test func aClaimIsStaleWhenItsProcessIsGoneOrItsHeartbeatStopped() {
        let mine = ResumeClaim.mine(attempt: 1, log: nil, abandoned: 0)
        #expect(!mine.isStale(touched: Date()))
        // The same pid started at another time: a reused pid, not the claimant.
        var reused = mine
        reused.pidStart = (mine.pidStart ?? 0) + 1
        #expect(reused.isStale(touched: Date()))
        var gone = mine
        gone.pid = Int32.max
        #expect(gone.isStale(touched: Date()))
        // Another host: only its heartbeat (the record's modification time) tells.
        var elsewhere = mine
        elsewhere.host = mine.host + "-other"
        let now = Date()
        #expect(!elsewhere.isStale(touched: now.addingTimeInterval(-ResumeClaim.staleAfter + 5), now: now))
        #expect(elsewhere.isStale(touched: now.addingTimeInterval(-ResumeClaim.staleAfter - 5), now: now))
        #expect(elsewhere.isStale(touched: nil, now: now))
    }

    @Test func aClaimIsKeptInTheRecord() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("claim-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let claim = ResumeClaim.mine(attempt: 2, log: "logs/x-2.log", abandoned: 1)
        ResumeRecord(state: .running, input: "in/a.mp4", options: [], claim: claim).write(for: dir + "/a.mp4")
        let read = try #require(ResumeRecord.read(for: dir + "/a.mp4")?.claim)
        #expect(read.pid == claim.pid && read.pidStart == claim.pidStart && read.host == claim.host)
        #expect(read.attempt == 2 && read.log == "logs/x-2.log" && read.abandoned == 1)
        #expect(abs(read.started.timeIntervalSince(claim.started)) < 1)
    }

    @Test func theETAIsTheMeanDurationTimesTheWorkLeftOverTheWorkers() throws {
        let now = Date()
        let iso = ISO8601DateFormatter()
        func job(_ status: String, _ seconds: Double, _ i: Int) -> [String: Any] {
            let j = BatchJob(
                input: "in/\(i).mp4", output: "out/\(i).mp4", options: [], manifestInput: "in/\(i).mp4",
                manifestOutput: "out/\(i).mp4", entry: 0, line: 1)
            return [
                "id": j.id, "manifestEntry": 0, "input": j.input, "output": j.output, "manifestInput": j.manifestInput,
                "manifestOutput": j.manifestOutput, "options": [String](), "status": status,
                "durationSeconds": seconds,
            ]
        }
        // Two ran for 10 s each, one has run 4 s, two wait, on 2 workers: (6 + 2 × 10) / 2 = 13 s.
        let object: [String: Any] = [
            "schema": "hfr.batch.report/1", "manifest": "m.json", "jobSet": "0", "shard": ["index": 1, "total": 1],
            "workers": 2, "manifestJobs": 5, "elapsedSeconds": 24, "finished": false, "hostname": "elsewhere",
            "updated": iso.string(from: now),
            "jobs": [
                job("succeeded", 10, 0), job("failed", 10, 1), job("running", 4, 2), job("pending", 0, 3),
                job("pending", 0, 4),
            ],
        ]
        let report = try ShardReport(data: JSONSerialization.data(withJSONObject: object), path: "r.json")
        let progress = ShardProgress(report, now: now, host: "here")
        #expect(progress.state == .running)
        let counts: [Int] = [progress.done, progress.failed, progress.running, progress.pending]
        #expect(counts == [1, 1, 1, 2])
        #expect(abs((progress.eta ?? 0) - 13) < 0.5)
        // Unfinished, from another host, silent for longer than a claim may be: not running.
        let late = ShardProgress(report, now: now.addingTimeInterval(ResumeClaim.staleAfter + 1), host: "here")
        #expect(late.state == .silent && late.eta == nil)
        #expect(throws: ReportError.self) { try ReportMerge([report]) }
    }

    @Test func theRerunManifestWritesEachOptionAsTheManifestDoes() {
        let table = ExportOptionTable(
            options: [("conform", .value), ("reencode", .value), ("force-all", .flag), ("control", .repeated)],
            reserved: [:], validate: { _ in nil })
        let members = RerunManifest.options(
            ["--conform", "30", "--force-all", "--control", "a=1", "--control", "b=2"], table: table)
        #expect(
            JSONValueText.render(members)
                == #"{"conform":"30","force-all":true,"control":["a=1","b=2"]}"#)
    }

    @Test func theJUnitCaseNamesEachAttemptAndItsLog() {
        var result = JobResult(job: Self.job, status: .succeeded)
        var first = JobAttempt(number: 1, outcome: .failed)
        first.exitCode = 1
        first.error = "in/a.mp4: <boom>"
        first.log = "logs/x-1.log"
        var second = JobAttempt(number: 2, outcome: .succeeded)
        second.exitCode = 0
        second.log = "logs/x-2.log"
        result.attempts = [first, second]
        let xml = JUnitReport.testcase(result, className: "hfr.batch.m")
        #expect(
            xml.contains("<system-out>attempt 1: failed, exit 1 (0.000 s): in/a.mp4: &lt;boom&gt;; log: logs/x-1.log\n")
        )
        #expect(xml.contains("[[ATTACHMENT|logs/x-1.log]]\n[[ATTACHMENT|logs/x-2.log]]\n</system-out>"))
        // One attempt without a log: no <system-out>.
        result.attempts = [second]
        result.attempts[0].log = nil
        #expect(!JUnitReport.testcase(result, className: "hfr.batch.m").contains("system-out"))
    }
}

/// Renders manifest members as one JSON object.
enum JSONValueText {
    static func render(_ members: [(String, JSONValue)]) -> String { JSONValue.object(members).rendered }
}
