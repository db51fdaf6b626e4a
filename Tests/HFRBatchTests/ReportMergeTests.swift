import Foundation
import Testing

@testable import HFRBatch

/// `hfr batch merge`'s checks: one manifest, every shard once, every job once; and its order.
struct ReportMergeTests {
    /// Twelve jobs of two manifest entries (eight from a glob, then four).
    static let jobs = (0..<12).map { i in
        let entry = i < 8 ? 0 : 1
        return BatchJob(
            input: "/w/in/c\(i % 8).mp4", output: "/w/out/c\(i)-\(entry).mp4", options: ["--conform", "30"],
            manifestInput: "in/c\(i % 8).mp4", manifestOutput: "out/c\(i)-\(entry).mp4", entry: entry, line: 3 + entry)
    }

    /// The `--json-report` of `shard` of `jobs`, as `hfr batch` writes it, read back.
    static func report(
        _ shard: Shard, of jobs: [BatchJob] = jobs, path: String? = nil, edit: (inout [String: Any]) -> Void = { _ in }
    ) throws -> ShardReport {
        var object: [String: Any] = [
            "schema": "hfr.batch.report/1", "manifest": "m.json", "jobSet": BatchJob.setID(of: jobs),
            "shard": ["index": shard.index, "total": shard.total, "source": "SLURM_ARRAY_TASK_ID=\(shard.index)"],
            "workers": 1, "manifestJobs": jobs.count, "hostname": "node\(shard.index)",
            "started": "2026-12-02T00:41:00Z", "elapsedSeconds": 1.5, "stoppedEarly": false,
            "jobs": shard.select(jobs).map { job -> [String: Any] in
                [
                    "id": job.id, "manifestEntry": job.entry, "input": job.input, "output": job.output,
                    "manifestInput": job.manifestInput, "manifestOutput": job.manifestOutput, "options": job.options,
                    "status": "succeeded", "durationSeconds": 0.25, "frames": 240, "outputBytes": 1000,
                    "exitCode": 0, "signal": NSNull(), "error": NSNull(),
                ]
            },
        ]
        edit(&object)
        let data = try JSONSerialization.data(withJSONObject: object)
        return try ShardReport(data: data, path: path ?? "shard-\(shard.index).json")
    }

    static func shards(_ total: Int) throws -> [ShardReport] {
        try (1...total).map { try report(Shard(index: $0, total: total)!) }
    }

    func refusal(_ reports: [ShardReport]) -> String? {
        do {
            _ = try ReportMerge(reports)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func everyJobOnceInManifestOrderWithItsShard() throws {
        let merged = try ReportMerge(Self.shards(4).reversed())
        #expect(merged.shards.map(\.shard.index) == [1, 2, 3, 4])
        #expect(merged.results.map(\.job.id) == Self.jobs.map(\.id))
        for (result, shard) in zip(merged.results, merged.shardOfResult) {
            #expect(Shard(index: shard, total: 4)!.select(Self.jobs).map(\.id).contains(result.job.id))
        }
        #expect(merged.results.allSatisfy { $0.status == .succeeded && $0.frames == 240 && $0.seconds == 0.25 })
        #expect(merged.jobSet == BatchJob.setID(of: Self.jobs) && merged.manifestJobs == 12)
    }

    @Test func missingAndDuplicatedShardsAreNamed() throws {
        let four = try Self.shards(4)
        #expect(refusal([four[0], four[2], four[3]]) == "shard 2/4 missing: no report for it")
        #expect(refusal([four[0], four[3]]) == "shards 2/4, 3/4 missing: no report for them")
        let copy = try Self.report(Shard(index: 3, total: 4)!, path: "copy.json")
        #expect(refusal(four + [copy]) == "shard 3/4 is there twice: shard-3.json and copy.json")
        #expect(refusal([]) == "no reports to merge")
    }

    @Test func reportsOfAnotherManifestOrCutAnotherWayAreRefused() throws {
        let four = try Self.shards(4)
        let otherJobs = Array(Self.jobs.dropLast())
        let other = try Self.report(Shard(index: 4, total: 4)!, of: otherJobs, path: "other.json")
        #expect(refusal(Array(four.prefix(3)) + [other])?.hasPrefix("other.json is from another manifest") == true)
        let halves = try Self.report(Shard(index: 2, total: 2)!, path: "half.json")
        #expect(
            refusal([four[0], halves])
                == "half.json is shard 2/2 but shard-1.json is shard 1/4: the manifest was cut two ways")
    }

    @Test func editedReportsAreRefused() throws {
        var four = try Self.shards(4)
        // A job moved from shard 1 to shard 2's report: it is there twice.
        four[1] = try Self.report(Shard(index: 2, total: 4)!) { object in
            var jobs = object["jobs"] as! [[String: Any]]
            jobs.append(jobs[0])
            object["jobs"] = jobs
        }
        #expect(refusal(four)?.hasPrefix("job ") == true)
        // A job dropped: fewer jobs than the manifest's.
        four[1] = try Self.report(Shard(index: 2, total: 4)!) { object in
            object["jobs"] = Array((object["jobs"] as! [[String: Any]]).dropFirst())
        }
        #expect(refusal(four)?.hasPrefix("the reports hold 11 jobs, not the manifest's 12") == true)
    }

    @Test func aFileThatIsNotAReportIsNamed() throws {
        func problem(_ edit: @escaping (inout [String: Any]) -> Void) -> String? {
            do {
                _ = try Self.report(Shard(index: 1, total: 2)!, path: "r.json", edit: edit)
                return nil
            } catch let error as ReportError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(problem { $0["schema"] = "hfr.batch.plan/1" }?.hasPrefix("r.json: schema hfr.batch.plan/1") == true)
        #expect(problem { $0["jobSet"] = nil }?.hasPrefix("r.json: no jobSet") == true)
        #expect(
            problem { $0["shard"] = ["index": 3, "total": 2] } == "r.json: shard.index is not between 1 and shard.total"
        )
        #expect(
            problem { object in
                var jobs = object["jobs"] as! [[String: Any]]
                jobs[0]["manifestOutput"] = "out/elsewhere.mp4"
                object["jobs"] = jobs
            }?.contains("jobs[0].id") == true)
        #expect(
            problem { object in
                var jobs = object["jobs"] as! [[String: Any]]
                jobs[0]["status"] = "done"
                object["jobs"] = jobs
            } == "r.json: jobs[0].status \"done\" is not a job status")
        #expect(throws: ReportError.self) { try ShardReport(data: Data("[1]".utf8), path: "x.json") }
    }
}
