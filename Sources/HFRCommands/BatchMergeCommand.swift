import Foundation
import HFRBatch
import HFRMedia

/// `hfr batch merge`: the JSON reports of a sharded batch's parts as one JUnit file and one JSON report.
public struct BatchMergeCommand: Command {
    public static let name = "batch merge"
    public static let abstract = "Merge the JSON reports of a batch's shards into one JUnit and one JSON report."
    public static let discussion = """
        Each shard of 'hfr batch --shard K/N' or '--shard auto' (a Slurm job array, a GitHub Actions
        matrix, a Kubernetes Indexed Job) writes its own --json-report. This reads them all and writes
        one JUnit file (one <testsuite> per shard, one <testcase> per job) and one JSON report (schema
        hfr.batch.merged/1, see docs/batch-manifest.md), so CI publishes one result.

        The reports must come from one manifest: the same jobSet (the ids of all its jobs), the same
        number of shards, each shard exactly once, every job exactly once. A missing or duplicated
        shard, or a report of another manifest, is refused naming it (exit 65); nothing is written.
        So is a report written while its shard runs ("finished": false): 'hfr batch status' reads those.
        --report and --json-report may be none of the reports read, nor one file (exit 64).

        Exit codes: 0 merged and every job succeeded (or was up to date), 1 merged but a job failed,
        was cancelled or did not run, 65 the reports do not make one batch, 74 a report unreadable or
        an output not writable.
        """
    public static let options: [OptionSpec] = [
        .positional("REPORT...", help: "The shards' --json-report files (schema hfr.batch.report/1)."),
        .value("report", "FILE", help: "Write the merged JUnit XML report."),
        .value("json-report", "FILE", help: "Write the merged JSON report (schema hfr.batch.merged/1)."),
    ]

    let reports: [String]
    let junit: String?
    let json: String?

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        reports = arguments.positionals("REPORT...")
        junit = arguments.value("report")
        json = arguments.value("json-report")
    }

    public func run() throws(HFRError) {
        var files = BatchPaths()
        for path in reports { files.read(path, shown: path, as: .mergedReport) }
        try BatchCommand.checkReports([("--report", junit), ("--json-report", json)], files: files, of: Self.self)
        for path in [junit, json].compactMap({ $0 }) { try OutputFile.checkDirectory(of: path) }
        let shards = try BatchReports.read(reports)
        let merged: ReportMerge
        do throws(ReportError) {
            merged = try ReportMerge(shards)
        } catch {
            throw HFRError(error.message, exitCode: .dataError)
        }
        // Split jobs are joined from their units, which the shards wrote beside the outputs.
        let joins = BatchJoins.join(merged.results, force: false)
        BatchJoins.report(joins)
        if let junit { try BatchCommand.write(JUnitReport.document(Self.suites(merged)), to: junit) }
        if let json {
            try BatchCommand.write(BatchMergeJSON.document(merged, joins: joins).rendered + "\n", to: json)
        }
        try Self.conclude(merged)
        try BatchCommand.concludeJoins(joins, manifest: merged.manifest)
    }

    /// One JUnit suite per shard, with where and when it ran.
    static func suites(_ merged: ReportMerge) -> [JUnitReport.Suite] {
        merged.shards.map { shard in
            var suite = JUnitReport.Suite(
                manifest: shard.manifest, shard: shard.shard, results: shard.results, seconds: shard.seconds,
                started: shard.started, hostname: shard.hostname)
            suite.source = shard.source
            return suite
        }
    }

    /// The summary line; exit 1 when a job did not succeed.
    static func conclude(_ merged: ReportMerge) throws(HFRError) {
        let results = merged.results
        let count = { (status: JobResult.Status) in results.filter { $0.status == status }.count }
        let unfinished = count(.cancelled) + count(.notRun)
        var summary = "batch merge: \(merged.shards.count) shards, \(results.count) jobs: \(count(.succeeded)) done, "
        summary += "\(count(.skipped)) up to date, \(count(.failed)) failed"
        if unfinished > 0 { summary += ", \(unfinished) not done" }
        Console.error(summary + "\n")
        if count(.failed) + unfinished > 0 {
            throw HFRError(
                "\(merged.manifest): \(count(.failed) + unfinished) of \(results.count) jobs did not succeed",
                exitCode: .failure)
        }
    }
}
