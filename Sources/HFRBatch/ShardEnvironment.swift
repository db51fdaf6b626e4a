/// `--shard auto`: the shard a CI runner says this process is, from its environment.
///
/// - GitLab `parallel:` and others: `CI_NODE_INDEX` / `CI_NODE_TOTAL`. GitLab counts from 1 (it
///   sets `GITLAB_CI`); elsewhere (Heroku CI, Knapsack, a GitHub Actions matrix that sets the two
///   names) the index counts from 0. `HFR_SHARD_INDEX_BASE=0|1` says which, overriding both.
/// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (from 0) with the total in `HFR_SHARD_TOTAL`
///   or `JOB_COMPLETIONS` (Kubernetes sets neither: put the Job's `completions` there).
/// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, counted from
///   `SLURM_ARRAY_TASK_MIN` (`--array=1-4` and `--array=0-3` both work; steps do not).
/// - AWS Batch array jobs: `AWS_BATCH_JOB_ARRAY_INDEX` (from 0) with the size in
///   `AWS_BATCH_JOB_ARRAY_SIZE` or `HFR_SHARD_TOTAL` (AWS sets only the index: pass the size).
/// - Cloud Run jobs: `CLOUD_RUN_TASK_INDEX` (from 0) and `CLOUD_RUN_TASK_COUNT`.
public enum ShardEnvironment {
    /// The shard and a sentence saying where it came from; or why it cannot be told.
    public static func detect(_ environment: [String: String]) -> Result<(Shard, String), ShardError> {
        let variables = Variables(environment: environment)
        if environment["CI_NODE_INDEX"] != nil || environment["CI_NODE_TOTAL"] != nil { return variables.ciNode() }
        if environment["JOB_COMPLETION_INDEX"] != nil { return variables.kubernetes() }
        if environment["SLURM_ARRAY_TASK_ID"] != nil { return variables.slurm() }
        if environment["AWS_BATCH_JOB_ARRAY_INDEX"] != nil {
            return variables.fromZero(
                "AWS_BATCH_JOB_ARRAY_INDEX", total: ["AWS_BATCH_JOB_ARRAY_SIZE", "HFR_SHARD_TOTAL"],
                what: "AWS Batch array job")
        }
        if environment["CLOUD_RUN_TASK_INDEX"] != nil {
            return variables.fromZero("CLOUD_RUN_TASK_INDEX", total: ["CLOUD_RUN_TASK_COUNT"], what: "Cloud Run job")
        }
        return .failure(
            ShardError(
                "no CI shard variables found (CI_NODE_INDEX/CI_NODE_TOTAL, JOB_COMPLETION_INDEX with "
                    + "HFR_SHARD_TOTAL, SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, AWS_BATCH_JOB_ARRAY_INDEX with "
                    + "AWS_BATCH_JOB_ARRAY_SIZE or HFR_SHARD_TOTAL, or CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT)"))
    }

    /// The environment read one CI's way at a time.
    private struct Variables {
        let environment: [String: String]

        /// `CI_NODE_INDEX` / `CI_NODE_TOTAL`, from 1 on GitLab, else from 0, or as HFR_SHARD_INDEX_BASE says.
        func ciNode() -> Result<(Shard, String), ShardError> {
            int("CI_NODE_INDEX").flatMap { index in
                int("CI_NODE_TOTAL").flatMap { total in
                    var base = environment["GITLAB_CI"] != nil ? 1 : 0
                    var why = environment["GITLAB_CI"] != nil ? "GitLab, counted from 1" : "counted from 0"
                    if let text = environment["HFR_SHARD_INDEX_BASE"] {
                        guard text == "0" || text == "1" else {
                            return .failure(ShardError("HFR_SHARD_INDEX_BASE=\(text) must be 0 or 1"))
                        }
                        base = Int(text)!
                        why = "counted from \(base) (HFR_SHARD_INDEX_BASE)"
                    }
                    return shard(
                        index - base + 1, total, from: "CI_NODE_INDEX=\(index) CI_NODE_TOTAL=\(total) (\(why))")
                }
            }
        }

        /// `JOB_COMPLETION_INDEX` (from 0) with `HFR_SHARD_TOTAL` or `JOB_COMPLETIONS`.
        func kubernetes() -> Result<(Shard, String), ShardError> {
            let totalName = environment["HFR_SHARD_TOTAL"] != nil ? "HFR_SHARD_TOTAL" : "JOB_COMPLETIONS"
            guard environment[totalName] != nil else {
                return .failure(
                    ShardError(
                        "JOB_COMPLETION_INDEX is set but not the total: set HFR_SHARD_TOTAL (or JOB_COMPLETIONS) to "
                            + "the Job's completions"))
            }
            return int("JOB_COMPLETION_INDEX").flatMap { index in
                int(totalName).flatMap { total in
                    shard(
                        index + 1, total,
                        from: "JOB_COMPLETION_INDEX=\(index) \(totalName)=\(total) (Kubernetes Indexed Job)")
                }
            }
        }

        /// `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, counted from `SLURM_ARRAY_TASK_MIN`.
        func slurm() -> Result<(Shard, String), ShardError> {
            if let step = environment["SLURM_ARRAY_TASK_STEP"], step != "1" {
                return .failure(ShardError("SLURM_ARRAY_TASK_STEP=\(step): use a contiguous array such as --array=0-3"))
            }
            return int("SLURM_ARRAY_TASK_ID").flatMap { id in
                int("SLURM_ARRAY_TASK_COUNT").flatMap { count in
                    let min = environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0
                    return shard(
                        id - min + 1, count,
                        from: "SLURM_ARRAY_TASK_ID=\(id) SLURM_ARRAY_TASK_COUNT=\(count) SLURM_ARRAY_TASK_MIN=\(min) "
                            + "(Slurm job array)")
                }
            }
        }

        /// An index from 0 in `index` with the total in the first of `total` that is set.
        func fromZero(_ index: String, total: [String], what: String) -> Result<(Shard, String), ShardError> {
            guard let totalName = total.first(where: { environment[$0] != nil }) else {
                return .failure(
                    ShardError(
                        "\(index) is set but not the total: set \(total.joined(separator: " or ")) to the number of tasks"
                    ))
            }
            return int(index).flatMap { i in
                int(totalName).flatMap { n in shard(i + 1, n, from: "\(index)=\(i) \(totalName)=\(n) (\(what))") }
            }
        }

        func int(_ name: String) -> Result<Int, ShardError> {
            guard let text = environment[name] else { return .failure(ShardError("\(name) is not set")) }
            guard let value = Int(text) else {
                return .failure(ShardError("\(name)=\(text) is not a whole number"))
            }
            return .success(value)
        }

        /// Shard `index` (1-based) of `total`, or why not; `from` names the variables.
        func shard(_ index: Int, _ total: Int, from: String) -> Result<(Shard, String), ShardError> {
            guard total >= 1 else { return .failure(ShardError("\(from): the total \(total) must be at least 1")) }
            guard let shard = Shard(index: index, total: total) else {
                return .failure(ShardError("\(from): shard \(index) of \(total) is out of range"))
            }
            return .success((shard, "shard \(shard) from \(from)"))
        }
    }
}

/// Why `--shard auto` cannot tell the shard.
public struct ShardError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
