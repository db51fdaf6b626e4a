import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where one shard stands, from its `--json-report` (rewritten while it runs): for `hfr batch status`.
public struct ShardProgress: Sendable {
    /// How the shard's batch is.
    public enum State: String, Sendable {
        case running, finished
        /// Its report is unfinished and its process, on this host, is gone.
        case died
        /// Its report is unfinished and has not been rewritten for `ResumeClaim.staleAfter` seconds
        /// (a running batch rewrites it at least every `ResumeClaim.heartbeat`).
        case silent
    }

    public let report: ShardReport
    public let state: State
    /// Succeeded or up to date.
    public let done: Int
    public let failed: Int
    /// Cancelled or not run (in a finished report).
    public let stopped: Int
    public let running: Int
    public let pending: Int
    /// Seconds left, from now: the mean duration of the jobs that ran, times the work left, over
    /// the workers; nil when finished or before a job has ended.
    public let eta: Double?

    public var jobs: Int { report.results.count }

    public init(_ report: ShardReport, now: Date = Date(), host: String = ResumeClaim.hostname) {
        self.report = report
        let count = { (statuses: [JobResult.Status]) in report.results.filter { statuses.contains($0.status) }.count }
        done = count([.succeeded, .skipped])
        failed = count([.failed])
        stopped = count([.cancelled, .notRun])
        running = count([.running])
        pending = count([.pending])
        let since = report.updated.map { now.timeIntervalSince($0) } ?? 0
        if report.finished {
            state = .finished
        } else if report.hostname == host, let pid = report.pid, kill(pid, 0) != 0, errno == ESRCH {
            state = .died
        } else if report.hostname != host, since > ResumeClaim.staleAfter {
            state = .silent
        } else {
            state = .running
        }
        eta = state == .running ? Self.eta(report, since: since) : nil
    }

    static func eta(_ report: ShardReport, since: Double) -> Double? {
        let ran = report.results.filter { $0.status == .succeeded || $0.status == .failed }.map(\.seconds)
        guard !ran.isEmpty else { return nil }
        let mean = ran.reduce(0, +) / Double(ran.count)
        let running = report.results.filter { $0.status == .running }
        let pending = report.results.filter { $0.status == .pending }.count
        let work = running.reduce(0) { $0 + max(0, mean - ($1.seconds + since)) } + Double(pending) * mean
        return work / Double(max(1, min(report.workers, running.count + pending)))
    }
}
