import Foundation
import HFRMedia

/// Retries (`--retries N`), kept logs (`--logs DIR`) and claims: a job another batch is running
/// is left to it, one whose batch died is redone once (`--resume`).
extension BatchRunner {
    /// A job's attempts: the first, then up to `retries` more while its export fails in a way that
    /// may pass (a crash, the OOM killer, a full disk, a flaky mount: not bad input data).
    func runUnit(_ job: BatchJob, slot: Int) -> JobResult {
        var history: [JobAttempt] = []
        var first = 1
        var abandoned = 0
        if settings.resume, let record = ResumeRecord.read(for: job.output), record.state == .running,
            let claim = record.claim
        {
            switch Self.judge(claim, of: job) {
            case .left(let result): return result
            case .redo(let attempt):
                onNote("\(job.title): the batch running it died (\(claim.description)); redoing it")
                history = [attempt]
                first = claim.attempt + 1
                abandoned = claim.abandoned + 1
            }
        }
        var number = first
        while true {
            var result = runJob(job, slot: slot, attempt: number, abandoned: abandoned)
            history += result.attempts
            guard result.status == .failed, Self.isRetryable(result), number - first < settings.retries, !isStopping
            else {
                result.attempts = history
                return result
            }
            onNote("retrying \(job.title) (attempt \(number + 1)): \(result.error ?? "failed")")
            number += 1
        }
    }

    /// Whether another attempt could end otherwise: an export ran, and did not fail on what cannot
    /// change (65: the input's data; 64: its options).
    static func isRetryable(_ result: JobResult) -> Bool {
        !result.attempts.isEmpty && result.exitCode != 65 && result.exitCode != 64
    }

    /// What `--resume` does with a job another batch claimed.
    enum ClaimJudgement {
        /// Not run: its batch lives, or it died there twice (the result says which).
        case left(JobResult)
        /// Redone: the abandoned attempt for the history.
        case redo(JobAttempt)
    }

    static func judge(_ claim: ResumeClaim, of job: BatchJob) -> ClaimJudgement {
        guard claim.isStale(touched: ResumeClaim.modified(ResumeRecord.path(for: job.output))) else {
            var result = JobResult(job: job, status: .notRun)
            result.error = "\(job.manifestOutput): another batch is making it (\(claim.description)); left to it"
            return .left(result)
        }
        var attempt = JobAttempt(number: claim.attempt, outcome: .abandoned)
        attempt.error = "the batch running it died (\(claim.description))"
        attempt.log = claim.log
        guard claim.abandoned == 0 else {
            var result = JobResult(job: job, status: .failed)
            result.error =
                "\(job.manifestOutput): \(claim.abandoned + 1) batches died running it (last: \(claim.description)); "
                + "not redone again with --resume (run it without)"
            result.attempts = [attempt]
            return .left(result)
        }
        return .redo(attempt)
    }

    /// The attempt `number` that made `result`, its trailer added to its log.
    static func attempt(_ number: Int, of result: JobResult, seconds: Double, log: String?) -> JobAttempt {
        let outcome: JobAttempt.Outcome =
            switch result.status {
            case .succeeded: .succeeded
            case .cancelled: .cancelled
            default: .failed
            }
        var attempt = JobAttempt(number: number, outcome: outcome)
        attempt.seconds = seconds
        attempt.exitCode = result.exitCode
        attempt.signal = result.signal
        attempt.error = result.error
        attempt.log = log
        if let log {
            let how =
                result.signal.map { "killed by signal \($0) (\(signalName($0)))" } ?? "exit \(result.exitCode ?? -1)"
            let line = "# \(outcome.rawValue): \(how) after \(DecimalText.fixed(seconds, digits: 1)) s\n"
            let fd = FileSystem.open(log, O_WRONLY | O_APPEND | O_CLOEXEC)
            if fd >= 0 {
                _ = Array(line.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
        return attempt
    }

    /// A log's first lines: which attempt of which job, where, when, and the command line as a
    /// shell would take it.
    static func logHeader(_ job: BatchJob, attempt: Int, command: [String]) -> String {
        let quoted = command.map { word in
            word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@+".contains($0) }
                ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return "# hfr batch: job \(job.id) (\(job.title)), attempt \(attempt), \(ResumeClaim.hostname) pid "
            + "\(getpid()), \(ResumeClaim.timestamp(Date()))\n# \(quoted.joined(separator: " "))\n"
    }

    /// Touches the records of the running jobs every `ResumeClaim.heartbeat` seconds until the run
    /// ends, so that a batch on another host can tell they are alive.
    func startHeartbeat() {
        let thread = Thread { [self] in
            var last = Date()
            while !state.withLock({ $0.isDone }) {
                usleep(500_000)
                guard Date().timeIntervalSince(last) >= ResumeClaim.heartbeat else { continue }
                last = Date()
                for output in state.withLock({ $0.claimed }) { ResumeClaim.touch(ResumeRecord.path(for: output)) }
            }
        }
        thread.stackSize = 1 << 18
        thread.start()
    }
}
