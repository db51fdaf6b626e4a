import Foundation
import HFRBatch
import HFRMedia

/// `hfr batch failed`: a manifest of exactly the jobs that did not succeed, to run again.
public struct BatchFailedCommand: Command {
    public static let name = "batch failed"
    public static let abstract = "Print a manifest of exactly the jobs of some batch reports that did not succeed."
    public static let discussion = """
        Reads the --json-report files of a batch (one per shard, or any) and prints on stdout a
        manifest (schema hfr.batch/1) of the jobs that failed, were cancelled or did not run — and,
        from a report not finished yet (its shard running or dead), the running and pending ones,
        with a note. Each job keeps its own options; its input and output are absolute paths made
        from the directory the report says its manifest was in, so the manifest runs as is from
        anywhere on that machine: 'hfr batch failed r*.json > rerun.json && hfr batch rerun.json'.
        A job listed twice (the same report given twice) is listed once.

        The outputs of the rerun are the batch's own (their resume records stay), so they are
        replaced without --force. An input whose name has glob characters is escaped.

        Exit codes: 0 a manifest was printed, 1 every job succeeded or was up to date (nothing is
        printed), 65 a file is not a batch report, 74 a report unreadable.
        """
    public static let options: [OptionSpec] = [
        .positional("REPORT...", help: "The --json-report files whose failed jobs to list.")
    ]

    let reports: [String]

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        reports = arguments.positionals("REPORT...")
        if reports.isEmpty { throw .usage("missing REPORT", of: Self.self) }
    }

    public func run() throws(HFRError) {
        let read = try BatchReports.read(reports)
        for report in read where !report.finished {
            let open = report.results.filter { $0.status == .running || $0.status == .pending }.count
            Console.error(
                "Note: \(report.path) is not finished (shard \(report.shard) running, or dead): its \(open) running "
                    + "and pending jobs are listed too\n")
        }
        for report in read where report.manifestDirectory == nil {
            Console.error(
                "Note: \(report.path) does not say where its manifest was: its paths are relative to the directory "
                    + "the batch ran in\n")
        }
        let entries = RerunManifest.entries(read)
        let total = read.map(\.results.count).reduce(0, +)
        guard !entries.isEmpty else {
            throw HFRError("no failed job in \(reports.count) reports (\(total) jobs)", exitCode: .failure)
        }
        Console.output(RerunManifest.text(entries, table: BatchCommand.exportOptions))
        Console.error("batch failed: \(entries.count) of \(total) jobs to run again\n")
    }
}
