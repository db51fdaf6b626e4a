import Foundation
import HFRBatch
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// `--json-report`: the batch's results as JSON (schema `hfr.batch.report/1`).
enum BatchJSON {
    static let schema = "hfr.batch.report/1"

    /// The report; `finished` false while the batch runs (`BatchLiveReport`: running and pending
    /// jobs among the results).
    static func document(
        manifest: String, shard: Shard, shardSource: String?, workers: Int, manifestJobs jobs: [BatchJob],
        results: [JobResult], run: (started: Date, seconds: Double, hostname: String), stoppedEarly: Bool,
        finished: Bool = true, joins: [BatchJoins.Join] = []
    ) -> JSONValue {
        return .object([
            ("schema", .string(schema)),
            ("manifest", .string(manifest)),
            ("manifestDirectory", .optional(manifestDirectory(manifest).map { .string($0) })),
            ("jobSet", .string(BatchJob.setID(of: jobs))),
            (
                "shard",
                .object([
                    ("index", .int(Int64(shard.index))), ("total", .int(Int64(shard.total))),
                    ("source", .optional(shardSource.map { .string($0) })),
                ])
            ),
            ("workers", .int(Int64(workers))),
            ("manifestJobs", .int(Int64(jobs.count))),
            ("hostname", .string(run.hostname)),
            ("pid", .int(Int64(getpid()))),
            ("started", .string(timestamp(run.started))),
            ("updated", .string(timestamp(Date()))),
            ("finished", .bool(finished)),
            ("totals", totals(results)),
            ("stoppedEarly", .bool(stoppedEarly)),
            ("elapsedSeconds", .double(run.seconds)),
            ("jobs", .array(results.map(job))),
            ("joins", BatchJoins.json(joins)),
        ])
    }

    /// How many jobs ended each way (`totals`, the same in a shard's report and a merged one).
    static func totals(_ results: [JobResult]) -> JSONValue {
        func count(_ status: JobResult.Status) -> JSONValue {
            .int(Int64(results.filter { $0.status == status }.count))
        }
        return .object([
            ("jobs", .int(Int64(results.count))),
            ("succeeded", count(.succeeded)),
            ("failed", count(.failed)),
            ("skipped", count(.skipped)),
            ("cancelled", count(.cancelled)),
            ("notRun", count(.notRun)),
            ("running", count(.running)),
            ("pending", count(.pending)),
        ])
    }

    static func job(_ r: JobResult) -> JSONValue {
        .object([
            ("id", .string(r.job.id)),
            ("manifestEntry", .int(Int64(r.job.entry))),
            ("input", .string(r.job.input)),
            ("output", .string(r.job.output)),
            ("manifestInput", .string(r.job.manifestInput)),
            ("manifestOutput", .string(r.job.manifestOutput)),
            ("options", .array(r.job.options.map { .string($0) })),
            ("status", .string(r.status.rawValue)),
            ("durationSeconds", .double(r.seconds)),
            ("frames", .optional(r.frames.map { .int(Int64($0)) })),
            ("outputBytes", .optional(r.outputBytes.map { .int($0) })),
            ("exitCode", .optional(r.exitCode.map { .int(Int64($0)) })),
            ("signal", .optional(r.signal.map { .int(Int64($0)) })),
            ("error", .optional(r.error.map { .string($0) })),
            ("attempts", .int(Int64(r.attempts.count))),
            ("history", .array(r.attempts.map(attempt))),
            ("split", .optional(r.job.split.map(split))),
        ])
    }

    /// `jobs[].split`: which unit of a split job this is.
    static func split(_ unit: SplitUnit) -> JSONValue {
        let index: Int? =
            switch unit.part {
            case .video(let n): n
            case .rest: nil
            }
        return .object([
            ("output", .string(unit.output)),
            ("manifestOutput", .string(unit.manifestOutput)),
            ("part", .string(index == nil ? "rest" : "video")),
            ("index", .optional(index.map { .int(Int64($0)) })),
            ("parts", .int(Int64(unit.parts))),
        ])
    }

    static func attempt(_ a: JobAttempt) -> JSONValue {
        .object([
            ("attempt", .int(Int64(a.number))),
            ("outcome", .string(a.outcome.rawValue)),
            ("durationSeconds", .double(a.seconds)),
            ("exitCode", .optional(a.exitCode.map { .int(Int64($0)) })),
            ("signal", .optional(a.signal.map { .int(Int64($0)) })),
            ("error", .optional(a.error.map { .string($0) })),
            ("log", .optional(a.log.map { .string($0) })),
        ])
    }

    /// The manifest's directory, absolute (`hfr batch failed` writes paths from it).
    static func manifestDirectory(_ manifest: String) -> String? {
        FileSystem.realpath(ManifestPaths(manifest: manifest).base)
    }

    /// ISO 8601 in UTC: `2026-12-02T00:41:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
