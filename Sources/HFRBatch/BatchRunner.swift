import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a shard's jobs on `workers` threads, each job a child `hfr export --json` process, so a
/// job that crashes takes only itself down.
public final class BatchRunner: Sendable {
    /// How to run.
    public struct Settings: Sendable {
        public var workers: Int
        /// Skip jobs whose output and record match (see `ResumeRecord`).
        public var resume: Bool
        /// Replace outputs the batch did not write.
        public var force: Bool
        /// Stop at the first failure.
        public var failFast: Bool
        /// The hfr binary the exports run (this very binary).
        public var executable: String
        /// Given to every export as well (`-v`: libav's messages end up in the reports).
        public var extraArguments: [String]
        /// Attempts after a failed one (`--retries N`).
        public var retries = 0
        /// Where each attempt's log is kept (`--logs DIR`), or nil.
        public var logs: String? = nil

        public init(
            workers: Int, resume: Bool, force: Bool, failFast: Bool, executable: String, extraArguments: [String] = []
        ) {
            self.workers = workers
            self.resume = resume
            self.force = force
            self.failFast = failFast
            self.executable = executable
            self.extraArguments = extraArguments
        }
    }

    /// Counts for the progress line.
    public struct Tally: Sendable {
        public var total = 0
        public var finished = 0
        public var failed = 0
        public var skipped = 0
        public var running = 0
    }

    struct State {
        var next = 0
        var results: [JobResult?]
        var tally = Tally()
        var failedFast = false
        /// The outputs whose records claim them for this batch now (the heartbeat touches them).
        var claimed: Set<String> = []
        var isDone = false
    }

    let jobs: [BatchJob]
    let settings: Settings
    let state: Locked<State>
    /// Called as each job starts, from its worker (for a progress line naming the running jobs).
    let onStart: @Sendable (BatchJob) -> Void
    /// Called (serialized) as each job ends.
    let onFinish: @Sendable (JobResult, Tally) -> Void
    /// Called with a line worth showing: a retry, a job redone for a batch that died.
    let onNote: @Sendable (String) -> Void

    public init(
        jobs: [BatchJob], settings: Settings, onStart: @escaping @Sendable (BatchJob) -> Void = { _ in },
        onNote: @escaping @Sendable (String) -> Void = { _ in },
        onFinish: @escaping @Sendable (JobResult, Tally) -> Void
    ) {
        self.jobs = jobs
        self.settings = settings
        self.onStart = onStart
        self.onNote = onNote
        self.onFinish = onFinish
        var initial = State(results: Array(repeating: nil, count: jobs.count))
        initial.tally.total = jobs.count
        state = Locked(initial)
    }

    /// Runs every job (or until stopped); the results in job order, and whether it was stopped.
    public func run() -> (results: [JobResult], stoppedEarly: Bool) {
        let workers = max(1, min(settings.workers, jobs.count))
        Signals.install(SignalPlan(.forward(slots: workers)))
        let done = DispatchGroup()
        for slot in 0..<workers {
            done.enter()
            let thread = Thread { [self] in
                work(slot: slot)
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        startHeartbeat()
        done.wait()
        return state.withLock { s in
            s.isDone = true
            let results = jobs.indices.map { s.results[$0] ?? JobResult(job: jobs[$0], status: .notRun) }
            return (results, Signals.isStopRequested || s.failedFast)
        }
    }

    private func work(slot: Int) {
        while let index = claim() {
            onStart(jobs[index])
            let started = Date()
            var result = runUnit(jobs[index], slot: slot)
            result.seconds = Date().timeIntervalSince(started)
            state.withLock { s in
                s.results[index] = result
                s.tally.running -= 1
                s.tally.finished += 1
                if result.status == .failed { s.tally.failed += 1 }
                if result.status == .skipped { s.tally.skipped += 1 }
                if result.status == .failed, settings.failFast, !s.failedFast {
                    s.failedFast = true
                    Signals.signalChildren(SIGTERM)
                }
                onFinish(result, s.tally)
            }
        }
    }

    private func claim() -> Int? {
        state.withLock { s in
            guard s.next < jobs.count, !Signals.isStopRequested, !s.failedFast else { return nil }
            s.next += 1
            s.tally.running += 1
            return s.next - 1
        }
    }

    var isStopping: Bool { Signals.isStopRequested || state.withLock { $0.failedFast } }

    /// One attempt of a job: resume check, the export as a child, its record. The attempt's
    /// number and how many claims of the job were abandoned before go into its claim.
    func runJob(_ job: BatchJob, slot: Int, attempt: Int = 1, abandoned: Int = 0) -> JobResult {
        let existing = Self.size(of: job.output)
        let record = ResumeRecord.read(for: job.output)
        // The input's digest, once: from the resume check, else while the export runs.
        var inputDigest: String? = nil
        if settings.resume, let existing, let record, record.matches(job, outputBytes: existing) {
            inputDigest = FileDigest.sha256(of: job.input)
            if inputDigest == record.inputSHA256 {
                var result = JobResult(job: job, status: .skipped)
                result.frames = record.frames
                result.outputBytes = existing
                return result
            }
        }
        var result = JobResult(job: job, status: .failed)
        if existing != nil, record == nil, !settings.force {
            result.error = "\(job.output): already exists and was not written by hfr batch (use --force to replace it)"
            result.exitCode = 74
            return result
        }
        let log = settings.logs.map { JobAttempt.logPath(in: $0, job: job, number: attempt) }
        Self.prepareOutput(of: job, claim: .mine(attempt: attempt, log: log, abandoned: abandoned))
        state.withLock { _ = $0.claimed.insert(job.output) }
        defer { state.withLock { _ = $0.claimed.remove(job.output) } }
        let started = Date()
        let child: ChildProcess
        do {
            child = try launch(job, replacing: existing != nil, slot: slot, attempt: attempt, log: log)
        } catch {
            ResumeRecord.remove(for: job.output)
            result.error = error.message
            return result
        }
        let digest = inputDigest ?? FileDigest.sha256(of: job.input)
        let (termination, stdout, stderr) = child.wait()
        Signals.setChild(0, slot: slot)
        result.log = stderr
        if termination == .exited(0) {
            Self.succeeded(&result, summary: stdout, inputDigest: digest)
        } else {
            ended(&result, by: termination, of: child)
        }
        result.attempts = [Self.attempt(attempt, of: result, seconds: Date().timeIntervalSince(started), log: log)]
        return result
    }

    /// Fills in a job whose export succeeded and records how its output was made.
    static func succeeded(_ result: inout JobResult, summary: String, inputDigest: String?) {
        let job = result.job
        result.status = .succeeded
        result.exitCode = 0
        result.outputBytes = size(of: job.output)
        result.frames = frames(inSummary: summary)
        ResumeRecord(
            state: .done, input: job.manifestInput, inputSHA256: inputDigest, options: job.options,
            outputBytes: result.outputBytes, frames: result.frames
        ).write(for: job.output)
    }

    /// The output's directory made, leftovers of killed runs removed, the "running" record written.
    static func prepareOutput(of job: BatchJob, claim: ResumeClaim? = nil) {
        let directory = (job.output as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            FileSystem.makeDirectories(directory)
        }
        removeStaleTemporaries(of: job.output)
        ResumeRecord(state: .running, input: job.manifestInput, options: job.options, claim: claim).write(
            for: job.output)
    }

    /// Starts `hfr export … --json` for `job` in `slot`, where the signal handler finds it; its
    /// stderr into `log` (after the command line) when there is one.
    private func launch(
        _ job: BatchJob, replacing: Bool, slot: Int, attempt: Int, log: String?
    ) throws(ChildFailure) -> ChildProcess {
        var arguments = ["export", job.input, job.output] + job.options + ["--json"] + settings.extraArguments
        if replacing { arguments.append("--force") }
        let child = try ChildProcess(
            executable: settings.executable, arguments: arguments,
            extraEnvironment: ["HFR_BATCH_PARENT": String(getpid()), "HFR_BATCH_ATTEMPT": String(attempt)],
            log: log.map { ($0, Self.logHeader(job, attempt: attempt, command: [settings.executable] + arguments)) })
        Signals.setChild(child.pid, slot: slot)
        // A stop that came between claiming the job and starting it.
        if isStopping { kill(child.pid, Signals.isUrgent ? SIGKILL : SIGTERM) }
        return child
    }

    /// Fills in a job whose export did not succeed: failed, or cancelled when it was stopped.
    private func ended(_ result: inout JobResult, by termination: ChildProcess.Termination, of child: ChildProcess) {
        let job = result.job
        switch termination {
        case .exited(let code):
            result.exitCode = code
            result.error = Self.errorLine(result.log) ?? "hfr export exited with code \(code)"
        case .signalled(let signal):
            result.signal = signal
            result.error = "\(job.input): hfr export was killed by signal \(signal) (\(Self.signalName(signal)))"
            // It had no chance to remove its temporary output.
            FileSystem.unlink(AtomicOutput.temporaryPath(for: job.output, pid: child.pid))
        }
        if Self.isCancellation(termination, batchIsStopping: isStopping) { result.status = .cancelled }
        if Self.size(of: job.output) != nil {
            ResumeRecord(state: .failed, input: job.manifestInput, options: job.options).write(for: job.output)
        } else {
            ResumeRecord.remove(for: job.output)
        }
    }

    /// Whether an export that did not succeed was stopped rather than failed, judged by how it
    /// ended: exit 130 is an interrupted export (SPEC.md), and so is one that SIGINT or SIGTERM
    /// ended before its handler was in place — Ctrl-C, `scancel` and a pod's termination signal
    /// the batch and its exports together, so the export may end before the batch hears of the
    /// stop. SIGKILL counts only when the batch was stopping (it sent it); anything else killing
    /// an export (the OOM killer, a crash) is a failure.
    static func isCancellation(_ termination: ChildProcess.Termination, batchIsStopping: Bool) -> Bool {
        switch termination {
        case .exited(let code): code == 130
        case .signalled(let signal): [SIGINT, SIGTERM].contains(signal) || (batchIsStopping && signal == SIGKILL)
        }
    }

    static func size(of path: String) -> Int64? {
        var info = stat()
        guard path.withPathBytes({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// `video.framesOut` of the export's `--json` summary.
    static func frames(inSummary text: String) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let video = object["video"] as? [String: Any]
        else { return nil }
        return video["framesOut"] as? Int
    }

    /// The export's `Error: …` line, without the prefix.
    static func errorLine(_ stderr: String) -> String? {
        stderr.split(separator: "\n").last { $0.hasPrefix("Error: ") }.map { String($0.dropFirst(7)) }
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL", SIGBUS: "SIGBUS", SIGILL: "SIGILL",
            SIGFPE: "SIGFPE", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGTRAP: "SIGTRAP",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    /// Temporaries of `output` and of its record whose writing process is gone: left by a batch or
    /// an export that was killed.
    static func removeStaleTemporaries(of output: String) {
        let directory = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        let prefix = "." + name + "."
        guard let entries = FileSystem.names(in: directory.isEmpty ? "." : directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
            // `.NAME.<pid>.tmp` (an export's) or `.NAME.hfr-batch.json.<pid>.tmp` (a record's).
            let middle = entry.dropFirst(prefix.count).dropLast(4)
            let digits = middle.split(separator: ".").last ?? ""
            guard let pid = pid_t(digits), kill(pid, 0) != 0, errno == ESRCH else { continue }
            FileSystem.unlink(directory.isEmpty ? entry : directory + "/" + entry)
        }
    }
}
