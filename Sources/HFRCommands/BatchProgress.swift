import Foundation
import HFRBatch
import HFRMedia

/// Progress of a batch on stderr: jobs done / total, failures, ETA. On a terminal one live line
/// (failures printed above it); otherwise (CI logs) one line per finished job.
final class BatchProgress: Sendable {
    let isTerminal: Bool
    private let started = Date()

    init(isTerminal: Bool) { self.isTerminal = isTerminal }

    /// Called as each job ends (the runner serializes the calls).
    func finished(_ result: JobResult, _ tally: BatchRunner.Tally) {
        let counts = status(tally)
        let what: String
        switch result.status {
        case .succeeded:
            let frames = result.frames.map { ", \($0) frames" } ?? ""
            what = "ok \(result.job.title) (\(DecimalText.fixed(result.seconds, digits: 1)) s\(frames))"
        case .skipped: what = "up to date \(result.job.title)"
        case .failed: what = "FAILED \(result.job.title): \(result.error ?? "failed")"
        case .cancelled: what = "cancelled \(result.job.title)"
        case .notRun: what = "not run \(result.job.title)"
        }
        if isTerminal {
            if result.status == .failed { Console.error("\r\u{1B}[K" + "batch: " + what + "\n") }
            Console.error("\r\u{1B}[K" + counts)
        } else {
            var line = "batch: [\(tally.finished)/\(tally.total)] \(what)"
            if tally.failed > 0 { line += "; \(tally.failed) failed" }
            if let eta = eta(tally) { line += "; ETA \(eta)" }
            Console.error(line + "\n")
        }
    }

    /// `batch: 12/40 done, 1 failed, 2 running, ETA 0:35`
    func status(_ tally: BatchRunner.Tally) -> String {
        var line = "batch: \(tally.finished)/\(tally.total) done"
        if tally.failed > 0 { line += ", \(tally.failed) failed" }
        if tally.skipped > 0 { line += ", \(tally.skipped) up to date" }
        line += ", \(tally.running) running"
        if let eta = eta(tally) { line += ", ETA \(eta)" }
        return line
    }

    /// Time left at the pace so far (jobs finished per second of wall time, all workers together).
    func eta(_ tally: BatchRunner.Tally) -> String? {
        guard tally.finished > 0, tally.finished < tally.total else { return nil }
        let elapsed = Date().timeIntervalSince(started)
        return Self.clock(elapsed / Double(tally.finished) * Double(tally.total - tally.finished))
    }

    func clear() {
        if isTerminal { Console.error("\r\u{1B}[K") }
    }

    /// `1:05`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }
}
