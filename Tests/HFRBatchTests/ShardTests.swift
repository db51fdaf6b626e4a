import HFRBatch
import Testing

/// Shards: every job in exactly one, independent of the manifest's order; `--shard auto`.
struct ShardTests {
    static func jobs(_ count: Int) -> [BatchJob] {
        (0..<count).map { i in
            BatchJob(
                input: "in/\(i).mp4", output: "out/\(i).mp4", options: ["--conform", "30"],
                manifestInput: "in/\(i).mp4", manifestOutput: "out/\(i).mp4", entry: 0, line: 1)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 7])
    func everyJobInExactlyOneShardWhateverTheOrder(total: Int) {
        let jobs = Self.jobs(40)
        var generator = SystemRandomNumberGenerator()
        let shuffled = jobs.shuffled(using: &generator)
        var seen: [String: Int] = [:]
        for k in 1...total {
            let shard = Shard(index: k, total: total)!
            let part = shard.select(jobs)
            // Same jobs when the manifest is reordered, in the manifest's order.
            #expect(Set(shard.select(shuffled).map(\.id)) == Set(part.map(\.id)))
            #expect(part.map(\.id) == jobs.filter { j in part.contains { $0.id == j.id } }.map(\.id))
            // Balanced: sizes differ by at most one.
            #expect(part.count == 40 / total || part.count == 40 / total + 1)
            for job in part { seen[job.id, default: 0] += 1 }
        }
        #expect(seen.count == 40)
        #expect(seen.values.allSatisfy { $0 == 1 })
    }

    @Test func parsesKOverN() {
        #expect(Shard(parsing: "2/4") == Shard(index: 2, total: 4))
        #expect(Shard(parsing: "0/4") == nil)
        #expect(Shard(parsing: "5/4") == nil)
        #expect(Shard(parsing: "2") == nil)
        #expect(Shard(parsing: "a/b") == nil)
    }

    @Test(arguments: [
        (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4", "GITLAB_CI": "true"], 2, 4),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], 2, 4),
        (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4", "HFR_SHARD_INDEX_BASE": "1"], 2, 4),
        (["JOB_COMPLETION_INDEX": "3", "HFR_SHARD_TOTAL": "4"], 4, 4),
        (["JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "4"], 1, 4),
        (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"], 3, 4),
        (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"], 4, 4),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "4"], 1, 4),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "2", "HFR_SHARD_TOTAL": "3"], 3, 3),
        (["CLOUD_RUN_TASK_INDEX": "1", "CLOUD_RUN_TASK_COUNT": "2"], 2, 2),
    ])
    func autoReadsTheCIVariables(environment: [String: String], index: Int, total: Int) throws {
        let (shard, why) = try ShardEnvironment.detect(environment).get()
        #expect(shard == Shard(index: index, total: total))
        #expect(why.hasPrefix("shard \(index)/\(total) from "))
    }

    @Test(arguments: [
        ([:], "no CI shard variables found"),
        (["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "4"], "out of range"),
        (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4", "GITLAB_CI": "true"], "out of range"),
        (["CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "4"], "not a whole number"),
        (["JOB_COMPLETION_INDEX": "1"], "HFR_SHARD_TOTAL"),
        (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_STEP": "2"], "contiguous"),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "1"], "AWS_BATCH_JOB_ARRAY_SIZE or HFR_SHARD_TOTAL"),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "4", "AWS_BATCH_JOB_ARRAY_SIZE": "4"], "out of range"),
        (["CLOUD_RUN_TASK_INDEX": "0"], "CLOUD_RUN_TASK_COUNT"),
        (["CLOUD_RUN_TASK_INDEX": "-1", "CLOUD_RUN_TASK_COUNT": "2"], "out of range"),
    ])
    func autoRefusesWhatItCannotTell(environment: [String: String], expected: String) {
        guard case .failure(let error) = ShardEnvironment.detect(environment) else {
            Issue.record("accepted \(environment)")
            return
        }
        #expect(error.message.contains(expected), "\(error.message)")
    }
}
