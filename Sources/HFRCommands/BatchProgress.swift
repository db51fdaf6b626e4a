import Foundation
import HFRBatch
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Progress of a batch on stderr. On a terminal one live line, redrawn twice a second from the start:
/// `batch: 3/9 done, 1 failed, 41.0 of 120.3 MB, ETA 1:05, running: in/a.mp4 → … (12 s); …`
/// (failures printed above it); otherwise (CI logs) one line per finished job; with `-q` nothing.
///
/// The ETA comes from input bytes: those of the finished jobs over the wall time so far give the
/// pace, the bytes not yet finished at that pace the time left. A running job counts only once it
/// ends (its export is another process, which reports nothing before its summary).
final class BatchProgress: Sendable {
    private struct State {
        /// The runner's counts at the last job's end (nil before the first).
        var tally: BatchRunner.Tally?
        /// The running jobs and when each started.
        var running: [(job: BatchJob, since: Date)] = []
        var bytesDone: Int64 = 0
        /// Of `bytesDone`, those of jobs found up to date (no work: they do not set the pace).
        var bytesSkipped: Int64 = 0
        var isShown = false
        var isStopped = false
    }

    let style: ProgressLine.Style
    private let started = Date()
    private let total: Int
    private let totalBytes: Int64
    private let bytes: [String: Int64]
    private let state: Locked<State>

    init(jobs: [BatchJob], style: ProgressLine.Style = ProgressLine.style) {
        self.style = style
        var sizes: [String: Int64] = [:]
        for job in jobs { sizes[job.input] = Self.size(of: job.input) }
        bytes = sizes
        totalBytes = jobs.reduce(0) { $0 + (sizes[$1.input] ?? 0) }
        total = jobs.count
        state = Locked(State())
    }

    /// On a terminal: draws the line now and redraws it every half second until `stop`.
    func start() {
        guard style == .terminal else { return }
        redraw()
        let thread = Thread { [self] in
            while true {
                usleep(500_000)
                if state.withLock({ $0.isStopped }) { return }
                redraw()
            }
        }
        thread.stackSize = 1 << 18
        thread.start()
    }

    /// Ends the redrawing and erases the line (the summary follows).
    func stop() {
        state.withLock { s in
            s.isStopped = true
            if s.isShown { Console.error("\r\u{1B}[K") }
            s.isShown = false
        }
    }

    /// Called as a job starts (from its worker).
    func started(_ job: BatchJob) {
        state.withLock { s in
            s.running.append((job, Date()))
        }
    }

    /// Called as each job ends (the runner serializes the calls).
    func finished(_ result: JobResult, _ tally: BatchRunner.Tally) {
        state.withLock { s in
            s.tally = tally
            s.running.removeAll { $0.job == result.job }
            s.bytesDone += bytes[result.job.input] ?? 0
            if result.status == .skipped { s.bytesSkipped += bytes[result.job.input] ?? 0 }
            switch style {
            case .terminal:
                if result.status == .failed {
                    Console.error("\r\u{1B}[K" + "batch: " + Self.outcome(result) + "\n")
                }
                draw(&s)
            case .lines:
                var line = "batch: [\(tally.finished)/\(tally.total)] \(Self.outcome(result))"
                if tally.failed > 0 { line += "; \(tally.failed) failed" }
                if let eta = eta(s) { line += "; ETA \(eta)" }
                Console.error(line + "\n")
            case .quiet: break
            }
        }
    }

    /// A line worth showing whatever the style (a retry, a job redone): above the live line.
    func note(_ line: String) {
        state.withLock { s in
            Console.error((style == .terminal ? "\r\u{1B}[K" : "") + "batch: \(line)\n")
            if style == .terminal, s.isShown { draw(&s) }
        }
    }

    private func redraw() { state.withLock { s in if !s.isStopped { draw(&s) } } }

    private func draw(_ s: inout State) {
        Console.error("\r" + text(s, width: ProgressLine.terminalWidth - 1) + "\u{1B}[K")
        s.isShown = true
    }

    /// `ok in/a.mp4 → out/a.mp4 --conform 30 (4.2 s, 480 frames)`, `FAILED …: why`.
    static func outcome(_ result: JobResult) -> String {
        switch result.status {
        case .succeeded:
            let frames = result.frames.map { ", \($0) frames" } ?? ""
            return "ok \(result.job.title) (\(DecimalText.fixed(result.seconds, digits: 1)) s\(frames))"
        case .skipped: return "up to date \(result.job.title)"
        case .failed: return "FAILED \(result.job.title): \(result.error ?? "failed")"
        case .cancelled: return "cancelled \(result.job.title)"
        case .notRun, .running, .pending:
            return "not run \(result.job.title)" + (result.error.map { ": \($0)" } ?? "")
        }
    }

    /// The live line, at most `width` characters: counts, bytes, ETA, then the running jobs' titles
    /// shortened to share what is left.
    private func text(_ s: State, width: Int) -> String {
        var line = "batch: \(s.tally?.finished ?? 0)/\(total) done"
        if let t = s.tally, t.failed > 0 { line += ", \(t.failed) failed" }
        if let t = s.tally, t.skipped > 0 { line += ", \(t.skipped) up to date" }
        line += ", \(Self.megabytes(s.bytesDone)) of \(Self.megabytes(totalBytes)) MB"
        line += ", ETA \(eta(s) ?? "-:--")"
        guard !s.running.isEmpty else { return ProgressLine.fit(line, width: width) }
        line += ", running: "
        let now = Date()
        let ages = s.running.map { " (\(Int(now.timeIntervalSince($0.since))) s)" }
        let fixed: Int = line.count + ages.map(\.count).reduce(0, +) + 2 * (s.running.count - 1)
        let each = max(8, (width - fixed) / s.running.count)
        let names = zip(s.running, ages).map { ProgressLine.fit($0.job.title, width: each) + $1 }
        return ProgressLine.fit(line + names.joined(separator: "; "), width: width)
    }

    /// Time left at the pace of the input bytes finished so far (nil before the first job's end).
    private func eta(_ s: State) -> String? {
        let worked = s.bytesDone - s.bytesSkipped
        guard worked > 0, let t = s.tally, t.finished < t.total else { return nil }
        let elapsed = Date().timeIntervalSince(started)
        return ProgressLine.clock(elapsed / Double(worked) * Double(max(0, totalBytes - s.bytesDone)))
    }

    private static func megabytes(_ bytes: Int64) -> String { DecimalText.fixed(Double(bytes) / 1e6, digits: 1) }

    private static func size(of path: String) -> Int64 {
        var info = stat()
        return path.withPathBytes({ stat($0, &info) }) == 0 ? Int64(info.st_size) : 0
    }
}
