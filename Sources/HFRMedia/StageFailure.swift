/// A failure with the stage that was running when it happened ("video encoder (libx265)",
/// "resampling audio stream #1 to 44100 Hz"), its kind, and the typed error underneath.
///
/// The stage is named once, by the code that runs it; layers above pass the failure on as it is.
public struct StageFailure: ClassifiedFailure, CustomStringConvertible {
    /// What failed (decides the exit code).
    public let kind: FailureKind
    /// The stage that ran, as users read it.
    public let stage: String
    /// The error underneath (nil when the stage's own check failed and `stage` says why).
    public let cause: (any Error)?

    /// `kind` nil: the cause's own kind.
    public init(_ stage: String, _ cause: any Error, kind: FailureKind? = nil) {
        self.stage = stage
        self.cause = cause
        self.kind = kind ?? FailureKind.of(cause)
    }

    /// A stage's own check that failed: `text` says what and why.
    public init(_ text: String, kind: FailureKind) {
        stage = text
        cause = nil
        self.kind = kind
    }

    /// "stage: cause", or the stage's own text when it has no cause.
    public var description: String { cause.map { "\(stage): \($0)" } ?? stage }
}
