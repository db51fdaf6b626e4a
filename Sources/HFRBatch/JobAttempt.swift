/// One try of a job's export (`--retries N` gives up to N + 1), or the try of a batch that died
/// while it ran (found stale on `--resume`): how it ended, and where its log is.
public struct JobAttempt: Sendable, Equatable {
    /// How one attempt ended.
    public enum Outcome: String, Sendable {
        case succeeded, failed, cancelled
        /// The batch running it died (its claim was found stale on `--resume`).
        case abandoned
    }

    /// 1-based; a redo of an abandoned attempt continues its numbering.
    public var number: Int
    public var outcome: Outcome
    public var seconds: Double = 0
    public var exitCode: Int32? = nil
    public var signal: Int32? = nil
    /// The error line (without "Error: "), or what became of an abandoned attempt.
    public var error: String? = nil
    /// The file `--logs DIR` kept for it (the command line and the export's stderr).
    public var log: String? = nil

    public init(number: Int, outcome: Outcome) {
        self.number = number
        self.outcome = outcome
    }

    /// The log file of `job`'s attempt `number` in `directory`: `DIR/<id>-<number>.log`.
    public static func logPath(in directory: String, job: BatchJob, number: Int) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + "\(job.id)-\(number).log"
    }
}
