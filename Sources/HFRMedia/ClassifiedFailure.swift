/// An error that knows what failed (the leaf types: `AVFailure`, `H264Encoder.Failure`,
/// `StageFailure`).
public protocol ClassifiedFailure: Error, Sendable {
    /// What failed.
    var kind: FailureKind { get }
}
