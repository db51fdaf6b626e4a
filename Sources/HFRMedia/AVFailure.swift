import CFFmpeg

/// A failed FFmpeg call: its error code, the operation, and FFmpeg's own message.
///
/// This is the one error type at the C boundary; `HFRError` turns it into what users read.
public struct AVFailure: ClassifiedFailure, CustomStringConvertible {
    /// The negative AVERROR code.
    public let code: Int32
    /// The call that failed, e.g. `avformat_open_input`.
    public let operation: String
    /// What hfr was doing when it failed; errors are classified by this, never by `operation`'s text.
    public private(set) var stage: Stage = .other

    /// What a failed call was part of.
    public enum Stage: Sendable {
        /// Opening an input and reading its header and stream parameters (a demuxer's set-up).
        case openingInput
        /// Reading the packets of an input that opened.
        case readingInput
        /// Decoding packets (the data is not what its codec says).
        case decoding
        /// Opening an encoder with its settings (a refusal here is of the settings, not the input).
        case openingEncoder
        /// Encoding (hfr's own encoders and converters).
        case encoding
        /// Creating or writing an output file.
        case writingOutput
        /// Matching a raw stream's frames to the times given for it (`InputTiming`); `operation`
        /// holds the whole cause.
        case timing
        case other
    }

    public init(code: Int32, operation: String, stage: Stage = .other) {
        self.code = code
        self.operation = operation
        self.stage = stage
    }

    /// This failure, marked as having happened while doing `stage`.
    public func during(_ stage: Stage) -> AVFailure {
        var copy = self
        copy.stage = stage
        return copy
    }

    /// FFmpeg's text for the code, e.g. "Invalid data found when processing input".
    public var message: String { AVFailure.text(for: code) }

    /// The POSIX errno behind the code, when there is one (ENOENT, EACCES, …).
    public var errno: Int32? {
        let e = hfr_errno_of(code)
        return e == 0 ? nil : e
    }

    /// The errno behind the code, by name.
    public var errorNumber: Errno? { errno.map(Errno.init(rawValue:)) }

    public var isInvalidData: Bool { code == HFR_AVERROR_INVALIDDATA }

    /// Whether the file itself could not be reached (missing, not permitted, a directory, too many
    /// open files): an I/O failure. Anything else a demuxer or decoder returns while parsing —
    /// ENOMEM for an absurd table size, EIO, EINVAL, AVERROR_INVALIDDATA — is bad data.
    public var isFileAccessFailure: Bool {
        guard let errno else { return false }
        return [EPERM, ENOENT, EACCES, ENOTDIR, EISDIR, ENXIO, ENODEV, EBUSY, ELOOP, ENAMETOOLONG, EMFILE, ENFILE]
            .contains(errno)
    }

    /// A failure of the file or disk being written (full, read-only, gone, not permitted) rather
    /// than of what was written: exit 74.
    public var isOutputSideFailure: Bool {
        guard let errno else { return false }
        return [
            ENOSPC, EDQUOT, EFBIG, EIO, EROFS, EPERM, EACCES, ENOENT, ENOTDIR, EISDIR, ENAMETOOLONG, EEXIST,
            EMFILE, ENFILE, EBADF, EXDEV, EPIPE, ELOOP,
        ].contains(errno)
    }

    /// What failed, from the stage and the errno: the input's data or file, an encoder's settings,
    /// an encoder, the output's file or disk.
    public var kind: FailureKind {
        switch stage {
        case .openingInput, .readingInput, .decoding, .timing:
            isFileAccessFailure ? .inputAccess : .inputData
        case .openingEncoder:
            code == HFR_AVERROR_ENCODER_NOT_FOUND ? .unavailable : errno == ENOMEM ? .system : .options
        case .encoding: .encoder
        // Not the disk: the muxer refused what the input gave it (a timestamp it cannot hold …).
        case .writingOutput: isOutputSideFailure ? .output : .inputData
        case .other: .system
        }
    }

    /// Data that is not what it should be, found by hfr itself (FFmpeg's AVERROR_INVALIDDATA).
    public static func invalidData(_ operation: String) -> AVFailure {
        AVFailure(code: HFR_AVERROR_INVALIDDATA, operation: operation)
    }

    public var description: String { stage == .timing ? operation : "\(operation): \(message)" }

    /// The times given for a raw stream do not fit its frames (`cause` says how).
    public static func timing(_ cause: String) -> AVFailure {
        AVFailure(code: HFR_AVERROR_INVALIDDATA, operation: cause, stage: .timing)
    }

    static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE))
        av_strerror(code, &buffer, buffer.count)
        return String(nulTerminated: buffer)
    }
}

/// Throws `AVFailure` for a negative FFmpeg return code and passes other values through.
@discardableResult
@inline(__always)
public func check(
    _ code: Int32, _ operation: @autoclosure () -> String, _ stage: AVFailure.Stage = .other
) throws(AVFailure) -> Int32 {
    if code < 0 { throw AVFailure(code: code, operation: operation(), stage: stage) }
    return code
}

/// Reads an FFmpeg send/receive return code: EAGAIN and EOF are loop states, other negatives throw.
@inline(__always)
func drainState(
    _ result: Int32, _ operation: @autoclosure () -> String, _ stage: AVFailure.Stage
) throws(AVFailure) -> Drain<Void> {
    if result == HFR_AVERROR_EAGAIN { return .needsInput }
    if result == HFR_AVERROR_EOF { return .endOfStream }
    try check(result, operation(), stage)
    return .value(())
}

/// The result of a send/receive step: a value, or one of the two loop states FFmpeg signals.
public enum Drain<Value> {
    case value(Value)
    /// EAGAIN: feed more input (or drain output) before asking again.
    case needsInput
    /// EOF: the stream is fully drained.
    case endOfStream
}

extension AVFailure {
    /// A failed system call as FFmpeg would report it (AVERROR of the errno).
    public init(errno: Errno, operation: String, stage: Stage = .other) {
        self.init(code: hfr_averror(errno.rawValue), operation: operation, stage: stage)
    }
}
