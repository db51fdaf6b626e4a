import CFFmpeg

/// A failed FFmpeg call: its error code, the operation, and FFmpeg's own message.
///
/// This is the one error type at the C boundary; `HFRError` turns it into what users read.
public struct AVFailure: Error, CustomStringConvertible, Sendable {
    /// The negative AVERROR code.
    public let code: Int32
    /// The call that failed, e.g. `avformat_open_input`.
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// FFmpeg's text for the code, e.g. "Invalid data found when processing input".
    public var message: String { AVFailure.text(for: code) }

    /// The POSIX errno behind the code, when there is one (ENOENT, EACCES, …).
    public var errno: Int32? {
        let e = hfr_errno_of(code)
        return e == 0 ? nil : e
    }

    public var isInvalidData: Bool { code == HFR_AVERROR_INVALIDDATA }

    /// Data that is not what it should be, found by hfr itself (FFmpeg's AVERROR_INVALIDDATA).
    public static func invalidData(_ operation: String) -> AVFailure {
        AVFailure(code: HFR_AVERROR_INVALIDDATA, operation: operation)
    }

    public var description: String { "\(operation): \(message)" }

    static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE))
        av_strerror(code, &buffer, buffer.count)
        return String(nulTerminated: buffer)
    }
}

/// Throws `AVFailure` for a negative FFmpeg return code and passes other values through.
@discardableResult
@inline(__always)
public func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(AVFailure) -> Int32 {
    if code < 0 { throw AVFailure(code: code, operation: operation()) }
    return code
}

/// Reads an FFmpeg send/receive return code: EAGAIN and EOF are loop states, other negatives throw.
@inline(__always)
func drainState(_ result: Int32, _ operation: @autoclosure () -> String) throws(AVFailure) -> Drain<Void> {
    if result == HFR_AVERROR_EAGAIN { return .needsInput }
    if result == HFR_AVERROR_EOF { return .endOfStream }
    try check(result, operation())
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
    public init(errno: Errno, operation: String) {
        self.init(code: hfr_averror(errno.rawValue), operation: operation)
    }
}
