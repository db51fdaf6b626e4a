import HFRMedia

/// Why a file could not be probed.
public enum ProbeFailure: Error, Sendable {
    /// FFmpeg could not open or read it.
    case av(AVFailure)
    /// The media data ends before the container's index says it should.
    case truncated(stream: Int, framesRead: Int, framesDeclared: Int64)
    /// A packet's data lies past the end of the file or was read short.
    case corruptPacket(stream: Int, frame: Int, position: Int64?)
}
