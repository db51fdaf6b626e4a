/// How one job of a batch ended, for the progress line and the reports.
public struct JobResult: Sendable {
    public enum Status: String, Sendable {
        /// The export ran and succeeded.
        case succeeded
        /// The export failed (or the job could not start).
        case failed
        /// `--resume`: the output was already made from this input with these options.
        case skipped
        /// Stopped while running (Ctrl-C, SIGTERM, `--fail-fast`); nothing was written.
        case cancelled
        /// Never started (Ctrl-C or `--fail-fast` came first).
        case notRun = "not-run"
        /// Only in a report written while the batch runs (`finished: false`): running now…
        case running
        /// …or not started yet.
        case pending
    }

    public let job: BatchJob
    public var status: Status
    public var seconds: Double = 0
    /// Frames written (`video.framesOut` of the export's summary).
    public var frames: Int? = nil
    public var outputBytes: Int64? = nil
    /// The export's exit code, or nil when it did not exit normally or never ran.
    public var exitCode: Int32? = nil
    /// The signal that ended the export, if one did (a crash).
    public var signal: Int32? = nil
    /// The error line (without "Error: "), for reports.
    public var error: String? = nil
    /// The export's whole stderr, for JUnit's failure text.
    public var log: String = ""
    /// Every attempt, in order (empty when no export ran: skipped, refused, not run).
    public var attempts: [JobAttempt] = []

    public init(job: BatchJob, status: Status) {
        self.job = job
        self.status = status
    }
}
