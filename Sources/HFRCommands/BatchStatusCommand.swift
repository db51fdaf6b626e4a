import Foundation
import HFRBatch
import HFRMedia

/// `hfr batch status`: how far the shards of a batch are, from their `--json-report` files, which
/// a running batch rewrites as it goes.
public struct BatchStatusCommand: Command {
    public static let name = "batch status"
    public static let abstract = "Show how far a batch's shards are, from their JSON reports, while they run."
    public static let discussion = """
        A batch run with --json-report writes the report as it starts and rewrites it (atomically)
        as jobs start and end, and at least every minute, with "finished": false until it ends. This
        reads the reports of one or more shards and prints a line per shard and one for all:
        jobs done (succeeded or up to date), failed, stopped (cancelled or not run), running,
        pending, and the time left.

        The ETA is the mean duration of the jobs that ran so far times the work left (the pending
        jobs, and what the running ones have not used of the mean), over the shard's workers;
        the batch's ETA is its slowest shard's.

        A shard's state: running; finished; died (its report is unfinished and its process, on this
        host, is gone: rerun the shard with --resume); silent (unfinished, from another host, and not
        rewritten for 10 minutes). When the reports name N shards and some are missing (not started
        yet, or not named), each missing shard gets a line "no report".

        Exit codes: 0 every shard's report is there and finished, 1 a shard is still running, died,
        is silent or has no report, 65 a file is not a batch report, 74 a report unreadable.
        """
    public static let options: [OptionSpec] = [
        .positional("REPORT...", help: "The shards' --json-report files (as they run, or after).")
    ]

    let reports: [String]

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        reports = arguments.positionals("REPORT...")
        if reports.isEmpty { throw .usage("missing REPORT", of: Self.self) }
    }

    public func run() throws(HFRError) {
        let progress = try BatchReports.read(reports).map { ShardProgress($0) }
        let missing = Self.missingShards(progress.map(\.report))
        Console.output(Self.table(progress, missing: missing))
        let open =
            progress.filter { $0.state != .finished }.map { "\($0.report.shard) \($0.state.rawValue)" }
            + missing.map { "\($0) no report" }
        if !open.isEmpty {
            let total = progress.count + missing.count
            throw HFRError(
                "\(open.count) of \(total) shards not finished: \(open.joined(separator: ", "))", exitCode: .failure)
        }
    }

    /// `K/N` of the shards no report covers, when every report names the same N.
    static func missingShards(_ reports: [ShardReport]) -> [String] {
        guard let total = reports.first?.shard.total, reports.allSatisfy({ $0.shard.total == total }) else { return [] }
        let present = Set(reports.map(\.shard.index))
        return (1...total).filter { !present.contains($0) }.map { "\($0)/\(total)" }
    }

    /// One row per shard (and per missing one), then the totals.
    static func table(_ shards: [ShardProgress], missing: [String], now: Date = Date()) -> String {
        var rows = [
            ["shard", "state", "done", "failed", "stopped", "running", "pending", "jobs", "ETA", "host", "updated"]
        ]
        for p in shards {
            let updated = p.report.updated.map { ProgressLine.clock(now.timeIntervalSince($0)) + " ago" } ?? "-"
            rows.append(
                [p.report.shard.description, p.state.rawValue] + counts([p])
                    + [
                        p.eta.map(ProgressLine.clock) ?? (p.state == .running ? "-:--" : "-"), p.report.hostname ?? "-",
                        updated,
                    ])
        }
        for shard in missing { rows.append([shard, "no report", "", "", "", "", "", "", "", "", ""]) }
        let state =
            shards.allSatisfy({ $0.state == .finished }) && missing.isEmpty
            ? "finished" : shards.contains { $0.state == .running } ? "running" : "incomplete"
        let etas = shards.filter { $0.state == .running }.map(\.eta)
        let eta =
            etas.isEmpty
            ? "-" : etas.contains { $0 == nil } ? "-:--" : ProgressLine.clock(etas.compactMap { $0 }.max()!)
        rows.append(["all", state] + counts(shards) + [eta, "", ""])
        return ExportPlanText.table(rows, numeric: [2, 3, 4, 5, 6, 7, 8])
    }

    static func counts(_ shards: [ShardProgress]) -> [String] {
        let sum = { (value: (ShardProgress) -> Int) in String(shards.map(value).reduce(0, +)) }
        return [sum(\.done), sum(\.failed), sum(\.stopped), sum(\.running), sum(\.pending), sum(\.jobs)]
    }
}
