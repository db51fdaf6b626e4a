/// `hfr batch merge`: the shards' reports of one manifest checked and combined into one.
///
/// The reports must come from one manifest (the same `jobSet`, shard count and job count), hold
/// each shard exactly once, and together hold every job of the manifest exactly once.
public struct ReportMerge: Sendable {
    /// The reports in shard order.
    public let shards: [ShardReport]
    /// Every job, in manifest order (entry, then input and output paths).
    public let results: [JobResult]
    /// The shard (1-based index) each of `results` came from.
    public let shardOfResult: [Int]

    public var jobSet: String { shards[0].jobSet }
    public var manifest: String { shards[0].manifest }
    public var manifestJobs: Int { shards[0].manifestJobs }

    public init(_ reports: [ShardReport]) throws(ReportError) {
        guard let first = reports.first else { throw ReportError("no reports to merge") }
        if let running = reports.first(where: { !$0.finished }) {
            throw ReportError(
                "\(running.path): shard \(running.shard) has not finished (its batch is running, or died): "
                    + "'hfr batch status' shows its progress; merge once it has ended")
        }
        for r in reports.dropFirst() { try Self.checkSameManifest(r, as: first) }
        let total = first.shard.total
        var byIndex: [Int: ShardReport] = [:]
        for r in reports {
            if let earlier = byIndex[r.shard.index] {
                throw ReportError("shard \(r.shard) is there twice: \(earlier.path) and \(r.path)")
            }
            byIndex[r.shard.index] = r
        }
        let missing = (1...total).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.map { "\($0)/\(total)" }.joined(separator: ", ")
            let noun = missing.count == 1 ? "shard" : "shards"
            throw ReportError("\(noun) \(names) missing: no report for \(missing.count == 1 ? "it" : "them")")
        }
        shards = (1...total).map { byIndex[$0]! }
        var pairs: [(JobResult, Int)] = []
        var seen: [String: String] = [:]
        for r in shards {
            for result in r.results {
                if let other = seen[result.job.id] {
                    throw ReportError("job \(result.job.title) is in both \(other) and \(r.path)")
                }
                seen[result.job.id] = r.path
                pairs.append((result, r.shard.index))
            }
        }
        guard pairs.count == first.manifestJobs, BatchJob.setID(of: pairs.map(\.0.job)) == first.jobSet else {
            throw ReportError(
                "the reports hold \(pairs.count) jobs, not the manifest's \(first.manifestJobs) (jobSet "
                    + "\(first.jobSet)): a report was edited or its shard ran another version of the manifest")
        }
        pairs.sort { a, b in Self.order(a.0.job, b.0.job) }
        results = pairs.map(\.0)
        shardOfResult = pairs.map(\.1)
    }

    /// Refuses `report` unless it is a shard of the same manifest as `first`.
    static func checkSameManifest(_ report: ShardReport, as first: ShardReport) throws(ReportError) {
        guard report.jobSet == first.jobSet, report.manifestJobs == first.manifestJobs else {
            throw ReportError(
                "\(report.path) is from another manifest than \(first.path): jobSet \(report.jobSet) with "
                    + "\(report.manifestJobs) jobs, not \(first.jobSet) with \(first.manifestJobs)")
        }
        guard report.shard.total == first.shard.total else {
            throw ReportError(
                "\(report.path) is shard \(report.shard) but \(first.path) is shard \(first.shard): "
                    + "the manifest was cut two ways")
        }
    }

    /// Manifest order: the entry, then (jobs of one glob) input and output.
    static func order(_ a: BatchJob, _ b: BatchJob) -> Bool {
        (a.entry, a.manifestInput, a.manifestOutput) < (b.entry, b.manifestInput, b.manifestOutput)
    }
}

extension BatchJob {
    /// The id of a whole manifest's jobs: FNV-1a of their sorted ids, 16 hex digits. The same for
    /// every shard of one manifest, whatever the order of its entries.
    public static func setID(of jobs: [BatchJob]) -> String {
        let hex = String(FNV1a.hash(jobs.map(\.id).sorted().joined(separator: ",")), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
