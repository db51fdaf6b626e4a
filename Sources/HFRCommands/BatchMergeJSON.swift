import HFRBatch
import HFRMedia

/// `hfr batch merge --json-report`: every shard's jobs as one document (schema `hfr.batch.merged/1`).
enum BatchMergeJSON {
    static let schema = "hfr.batch.merged/1"

    static func document(_ merged: ReportMerge, joins: [BatchJoins.Join] = []) -> JSONValue {
        let results = merged.results
        let jobs = zip(results, merged.shardOfResult).map { result, shard in
            guard case .object(let members) = BatchJSON.job(result) else { return BatchJSON.job(result) }
            return JSONValue.object(members + [("shard", .int(Int64(shard)))])
        }
        return .object([
            ("schema", .string(schema)),
            ("manifest", .string(merged.manifest)),
            ("jobSet", .string(merged.jobSet)),
            ("manifestJobs", .int(Int64(merged.manifestJobs))),
            ("shards", .array(merged.shards.map(shard))),
            ("totals", BatchJSON.totals(results)),
            ("stoppedEarly", .bool(merged.shards.contains { $0.stoppedEarly })),
            ("jobs", .array(jobs)),
            ("joins", BatchJoins.json(joins)),
        ])
    }

    static func shard(_ report: ShardReport) -> JSONValue {
        .object([
            ("index", .int(Int64(report.shard.index))),
            ("total", .int(Int64(report.shard.total))),
            ("source", .optional(report.source.map { .string($0) })),
            ("report", .string(report.path)),
            ("hostname", .optional(report.hostname.map { .string($0) })),
            ("started", .optional(report.started.map { .string(BatchJSON.timestamp($0)) })),
            ("workers", .int(Int64(report.workers))),
            ("elapsedSeconds", .double(report.seconds)),
            ("stoppedEarly", .bool(report.stoppedEarly)),
            ("jobs", .int(Int64(report.results.count))),
        ])
    }
}
