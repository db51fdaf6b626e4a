import HFRMedia

/// Why a file could not be probed.
public enum ProbeFailure: Error, Sendable {
    /// FFmpeg could not open or read it.
    case av(AVFailure)
    /// The media data ends before the container's index says it should.
    case truncated(stream: Int, framesRead: Int, framesDeclared: Int64)
    /// The container's index lists data up to `byte` of a file of `fileSize` bytes.
    case pastEnd(stream: Int, byte: Int64, fileSize: Int64)
    /// A packet's data lies past the end of the file or was read short.
    case corruptPacket(stream: Int, frame: Int, position: Int64?)
    /// A stream's timestamps jump further than any recording pauses (see `TimestampJump`).
    case timestampJump(TimestampJump)
}

extension ProbeFailure {
    /// The cause in words, for a one-line error naming the file.
    public var cause: String? {
        switch self {
        case .av: return nil
        case .truncated(let stream, let read, let declared):
            return "truncated: stream #\(stream) has \(read) of the \(declared) frames its index lists"
        case .pastEnd(let stream, let byte, let fileSize):
            return "truncated: stream #\(stream)'s index lists data up to byte \(byte) of a \(fileSize)-byte file"
        case .corruptPacket(let stream, let frame, let position):
            let at = position.map { " at byte \($0)" } ?? ""
            return "truncated or corrupt: stream #\(stream) frame \(frame)\(at) is incomplete"
        case .timestampJump(let jump):
            return jump.cause
        }
    }
}
