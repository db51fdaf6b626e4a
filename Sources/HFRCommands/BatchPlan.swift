import HFRBatch
import HFRExport
import HFRMedia

/// `hfr batch --dry-run`: each job of the shard planned as its export would plan it (the input
/// analysed, nothing written), so the listing says what really happens: copied or re-encoded, the
/// frames and length written, and the audio (copied where the speed is 1, whatever the options ask).
enum BatchPlan {
    /// A job and its plan, or why its export would fail.
    struct Entry {
        let job: BatchJob
        let plan: Result<ExportPreview, HFRError>
    }

    static let schema = "hfr.batch.plan/1"

    static func entries(_ jobs: [BatchJob]) -> [Entry] {
        jobs.map { job in Entry(job: job, plan: plan(job)) }
    }

    /// The job's export plan, made by the export's own code (its options parsed by its parser).
    static func plan(_ job: BatchJob) -> Result<ExportPreview, HFRError> {
        do throws(HFRError) {
            let command = try ExportCommand(
                ParsedArguments([job.input, job.output] + job.options, for: ExportCommand.self))
            let (settings, size) = try command.resolved()
            return .success(try ExportCommand.plan(settings, fileSize: size))
        } catch {
            return .failure(error)
        }
    }

    /// One row per job under a header; a job whose export would fail says so, its message on stderr.
    static func text(_ entries: [Entry]) -> String {
        var rows = [["job", "input", "output", "video", "frames", "seconds", "audio", "options"]]
        for e in entries {
            let j = e.job
            let options = j.options.joined(separator: " ")
            switch e.plan {
            case .success(let p):
                rows.append([
                    j.id, j.manifestInput, j.manifestOutput,
                    p.isReencoded ? "re-encode" : p.isSpliced ? "splice" : "copy",
                    String(p.framesOut),
                    DecimalText.fixed(p.outputDuration.doubleValue, digits: 3),
                    p.audioAlgorithm == "copy" ? "copied" : p.audioAlgorithm, options,
                ])
            case .failure(let error):
                rows.append([
                    j.id, j.manifestInput, j.manifestOutput, "fails (exit \(error.exitCode.rawValue))", "-", "-", "-",
                    options,
                ])
            }
        }
        return ExportPlanText.table(rows, numeric: [4, 5])
    }

    static func document(_ entries: [Entry], manifest: String, shard: Shard, manifestJobs: Int) -> JSONValue {
        .object([
            ("schema", .string(schema)),
            ("manifest", .string(manifest)),
            ("shard", .object([("index", .int(Int64(shard.index))), ("total", .int(Int64(shard.total)))])),
            ("manifestJobs", .int(Int64(manifestJobs))),
            (
                "jobs",
                .array(
                    entries.map { e in
                        let plan = try? e.plan.get()
                        var error: HFRError? = nil
                        if case .failure(let e) = e.plan { error = e }
                        return .object([
                            ("id", .string(e.job.id)),
                            ("manifestEntry", .int(Int64(e.job.entry))),
                            ("input", .string(e.job.input)),
                            ("output", .string(e.job.output)),
                            ("options", .array(e.job.options.map { .string($0) })),
                            ("plan", .optional(plan.map(ExportPlanJSON.document))),
                            ("exitCode", .optional(error.map { .int(Int64($0.exitCode.rawValue)) })),
                            ("error", .optional(error.map { .string($0.message) })),
                        ])
                    })
            ),
        ])
    }
}
