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
    /// A failed FFmpeg or file call while writing the output (exit 74 for the file or disk, else 65:
    /// the muxer refused what the input gave it).
    case writing(AVFailure)
    /// A stage of the export failed: the stage that ran, what failed (its kind) and the error.
    case failed(StageFailure)
    /// Ctrl-C or SIGTERM (exit 130); nothing is left behind.
    case interrupted

    /// A stage's own check on the input's data that failed (`text` says what; exit 65).
    static func processing(_ text: String) -> ExportFailure {
        .failed(StageFailure(text, kind: .inputData))
    }

    /// `error` as a failure of `stage`: an export failure (or a stage failure) passes through as
    /// it is, named where it happened; anything else gets the stage and its own kind, or `kind`
    /// where the stage knows better (a conversion of decoded pictures fails on the input's data).
    static func of(_ stage: String, _ error: any Error, as kind: FailureKind? = nil) -> ExportFailure {
        switch error {
        case let failure as ExportFailure: failure
        case let failure as StageFailure: .failed(failure)
        default: .failed(StageFailure(stage, error, kind: kind))
        }
    }

    /// Runs `body` as `stage`, its failure said once (`of(_:_:as:)`).
    static func during<T: ~Copyable>(
        _ stage: @autoclosure () -> String, as kind: FailureKind? = nil, _ body: () throws -> T
    ) throws(ExportFailure) -> T {
        do {
            return try body()
        } catch {
            throw .of(stage(), error, as: kind)
        }
    }

    /// Runs `body`, which reads the input: its FFmpeg failure is `reading` (the edge tells the
    /// file's access from its data by the failure's stage and errno).
    static func reading<T: ~Copyable>(_ body: () throws(AVFailure) -> T) throws(ExportFailure) -> T {
        do {
            return try body()
        } catch {
            throw .reading(error)
        }
    }

    /// A failure while setting up the output's streams: libav's as `writing`, export's own as is.
    static func settingUpOutput(_ error: any Error) -> ExportFailure {
        switch error {
        case let failure as AVFailure: .writing(failure)
        default: .of("setting up the output", error)
        }
    }
}
