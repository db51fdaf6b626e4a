import HFRMedia
import HFRProbe

/// The exit codes of SPEC.md (sysexits values).
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 64
    case dataError = 65
    case unavailable = 69
    case ioError = 74
    case interrupted = 130
}

/// The one error users see: a single line, an exit code, and (for usage errors) the command's usage.
public struct HFRError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let exitCode: ExitCode
    /// Set for usage errors: the command whose usage line and help hint follow the message.
    public let usageOf: (any Command.Type)?
    /// A line printed after the message: "Did you mean 'record'?".
    public var hint: String?

    public init(_ message: String, exitCode: ExitCode, usageOf: (any Command.Type)? = nil) {
        self.message = message
        self.exitCode = exitCode
        self.usageOf = usageOf
    }

    public var description: String { message }

    /// A command-line mistake: exit 64, printed with the usage line.
    public static func usage(_ message: String, of command: (any Command.Type)? = nil) -> HFRError {
        HFRError(message, exitCode: .usage, usageOf: command)
    }

    /// Input that is not what it should be (empty, truncated, not media): exit 65.
    public static func badInput(_ path: String, _ cause: String) -> HFRError {
        HFRError("\(path): \(cause)", exitCode: .dataError)
    }

    /// A file that cannot be opened, read or written: exit 74.
    public static func io(_ path: String, _ cause: String) -> HFRError {
        HFRError("\(path): \(cause)", exitCode: .ioError)
    }

    /// SPEC's exit code for what failed: the one place a failure's kind becomes a number.
    public static func exitCode(for kind: FailureKind) -> ExitCode {
        switch kind {
        case .inputData: .dataError
        case .inputAccess, .output: .ioError
        case .options: .usage
        case .unavailable: .unavailable
        case .encoder, .system: .failure
        }
    }

    /// A stage's failure said once: the file it concerns (the output for a failure of its file or
    /// disk, else the input), the stage that ran, the cause, and the exit code of its kind; settings
    /// an encoder refuses are the options of `command`, whose usage follows.
    public static func failed(
        _ failure: StageFailure, input: String, output: String, command: (any Command.Type)? = nil
    ) -> HFRError {
        HFRError(
            "\(failure.kind == .output ? output : input): \(failure)", exitCode: exitCode(for: failure.kind),
            usageOf: failure.kind == .options ? command : nil)
    }

    /// Maps a failed FFmpeg call on `path` to the right exit code and a readable cause.
    public static func reading(_ path: String, _ failure: AVFailure) -> HFRError {
        // Times given for a raw stream that do not fit it (counts, B-frames): bad data, said as is.
        if failure.stage == .timing { return .badInput(path, failure.description) }
        // Only a file that cannot be reached is I/O; what libav meets while parsing (ENOMEM for a
        // sample table claiming billions of entries, EIO, EINVAL) is bad data.
        if failure.isFileAccessFailure {
            return .io(path, "\(failure.message) (\(failure.operation))")
        }
        let cause =
            failure.stage == .openingInput
            ? "not a media file or unreadable container (\(failure.message))"
            : "truncated or corrupt (\(failure.description))"
        return .badInput(path, cause)
    }
}

extension HFRError {
    /// Maps a failed probe of `path` to one line and an exit code.
    public static func probing(_ path: String, _ failure: ProbeFailure) -> HFRError {
        if case .av(let f) = failure { return .reading(path, f) }
        return .badInput(path, failure.cause ?? "unreadable")
    }
}
