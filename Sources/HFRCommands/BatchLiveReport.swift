import Foundation
import HFRBatch
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// `--json-report` while the batch runs, for `hfr batch status`: written (atomically replaced) as
/// the batch starts, then at most twice a second after jobs start or end (and every minute
/// anyway, so that its `updated` shows the batch alive), with `finished: false`,
/// the running jobs `running` (their duration so far) and the others not begun `pending`. The
/// batch writes the final report over it.
final class BatchLiveReport: Sendable {
    private struct State {
        var results: [JobResult]
        /// Start of each running job, by index.
        var running: [Int: Date] = [:]
        var isDirty = false
        var isStopped = false
    }

    let path: String
    private let index: [String: Int]
    /// The report for these results.
    private let render: @Sendable ([JobResult]) -> String
    private let state: Locked<State>
    /// Held while a report is written, so that none lands after `stop` (over the final one).
    private let writing = Locked(())

    init(jobs: [BatchJob], path: String, render: @escaping @Sendable ([JobResult]) -> String) {
        self.path = path
        self.render = render
        index = Dictionary(jobs.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        state = Locked(State(results: jobs.map { JobResult(job: $0, status: .pending) }))
    }

    /// Writes the report now, then rewrites it while anything changed, until `stop`.
    func start() {
        write()
        let thread = Thread { [self] in
            var last = Date()
            while true {
                usleep(500_000)
                guard let dirty = state.withLock({ s -> Bool? in s.isStopped ? nil : s.isDirty }) else { return }
                // Unchanged, still rewritten now and then: its `updated` says the batch lives.
                if dirty || Date().timeIntervalSince(last) >= ResumeClaim.heartbeat {
                    write()
                    last = Date()
                }
            }
        }
        thread.stackSize = 1 << 18
        thread.start()
    }

    /// Ends the rewriting (the final report follows).
    func stop() { writing.withLock { _ in state.withLock { $0.isStopped = true } } }

    func started(_ job: BatchJob) {
        guard let i = index[job.id] else { return }
        state.withLock { s in
            s.running[i] = Date()
            s.isDirty = true
        }
    }

    func finished(_ result: JobResult) {
        guard let i = index[result.job.id] else { return }
        state.withLock { s in
            s.running[i] = nil
            s.results[i] = result
            s.isDirty = true
        }
    }

    private func write() { writing.withLock { _ in writeNow() } }

    private func writeNow() {
        let results = state.withLock { s -> [JobResult]? in
            guard !s.isStopped else { return nil }
            s.isDirty = false
            var results = s.results
            let now = Date()
            for (i, since) in s.running {
                results[i].status = .running
                results[i].seconds = now.timeIntervalSince(since)
            }
            return results
        }
        // Not writable now: the final report says so (the directory was checked at the start).
        if let results { _ = AtomicFile.write(Data(render(results).utf8), to: path) }
    }
}
