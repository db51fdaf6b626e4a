/// What failed, decided where the failure happens; the command line turns it into SPEC's exit
/// code in one place (`HFRError`), so no layer in between re-words or re-classifies it.
public enum FailureKind: Sendable, Equatable, CaseIterable {
    /// The input's data is not what it should be: not media, truncated, corrupt (exit 65).
    case inputData
    /// The input file cannot be reached or read: missing, not permitted (exit 74).
    case inputAccess
    /// Options that contradict each other, or settings an encoder refuses when it opens (exit 64).
    case options
    /// An encoder that opened failed on frames it was given (exit 1).
    case encoder
    /// The output file or its disk failed: full, read-only, gone (exit 74).
    case output
    /// A device, or a part of the installation (an encoder, a library), is missing or busy (exit 69).
    case unavailable
    /// Anything else: memory, hfr's own processing (exit 1).
    case system
}

extension FailureKind {
    /// The kind of any error: its own when it knows it, else `system`.
    public static func of(_ error: any Error) -> FailureKind {
        (error as? any ClassifiedFailure)?.kind ?? .system
    }
}
