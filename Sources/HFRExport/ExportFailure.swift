import HFRMedia

/// Why an export stopped; the command turns it into one line and an exit code.
public enum ExportFailure: Error, Sendable {
    /// The input is not something export can read: not media, truncated, corrupt (exit 65).
    case badInput(String)
    /// The export is possible only in a way the options forbid (`--reencode never`) (exit 65).
    case refused(String)
    /// Options that contradict each other or the input (exit 64).
    case usage(String)
    /// A part of hfr's installation the export needs is missing (exit 69).
    case unavailable(String)
    /// A failed FFmpeg call while reading the input.
    case reading(AVFailure)
    /// A failed FFmpeg or file call while writing the output (exit 74 for I/O, else 1).
    case writing(AVFailure)
    /// The encoder or the stretcher failed (exit 1).
    case processing(String)
    /// Ctrl-C or SIGTERM (exit 130); nothing is left behind.
    case interrupted

    /// The words of a failure that carries them (an FFmpeg call's: the call and its error).
    var cause: String {
        switch self {
        case .badInput(let text), .refused(let text), .usage(let text), .unavailable(let text),
            .processing(let text):
            text
        case .reading(let failure), .writing(let failure): failure.description
        case .interrupted: "interrupted"
        }
    }

    /// A failure while setting up the output's streams: libav's as `writing`, export's own as is.
    static func settingUpOutput(_ error: any Error) -> ExportFailure {
        switch error {
        case let failure as AVFailure: .writing(failure)
        case let failure as ExportFailure: failure
        default: .processing("\(error)")
        }
    }
}
