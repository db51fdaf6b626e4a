import HFRMedia

/// A live source the capture thread reads: the test pattern through libavdevice, or a V4L2 camera.
public protocol FrameSource: AnyObject, Sendable {
    /// The time base of video frame pts.
    var videoTimeBase: Rational { get }
    var videoWidth: Int { get }
    var videoHeight: Int { get }
    /// The pixel format the source delivers (before conversion to I420).
    var sourcePixelFormat: String? { get }
    /// The source's own audio, if it has some.
    var audio: StreamInfo? { get }
    /// What the source itself reports about lost frames (nil when it cannot tell).
    var losses: SourceLosses? { get }
    /// Why the source's own audio failed, if it did (the video goes on without it).
    var audioFailure: AVFailure? { get }

    /// The next item; `.idle` when nothing arrived for a while (so the caller can check for a stop).
    func next() throws -> CaptureItem?
}

extension FrameSource {
    /// Sources without audio of their own never fail at it.
    public var audioFailure: AVFailure? { nil }
}

/// One thing a source delivers.
public enum CaptureItem {
    /// A picture; `wallClock` is when it was captured (µs, the clock libavdevice stamps audio
    /// with), when the source knows it better than the time it was read.
    case video(Frame, wallClock: Int64?)
    /// A camera's JPEG picture, still compressed (pts set like a frame's): decoded by the record
    /// pipeline's decode stage, off the capture thread (`V4L2Capture.deliversJPEG`).
    case jpeg(Packet, wallClock: Int64?)
    case audio(Frame)
    case idle
}

/// Frames a camera lost before they reached hfr.
public struct SourceLosses: Sendable, Equatable {
    /// Dropped by the driver: gaps in `v4l2_buffer.sequence` (or in timestamps without sequence).
    public var dropped: Int
    /// Delivered with `V4L2_BUF_FLAG_ERROR` and skipped.
    public var corrupt: Int
    /// Timestamps that jumped (wrapped, went backwards) and were replaced by the sequence count.
    public var timestampDiscontinuities: Int
    /// Buffers that repeated the previous sequence number, left out.
    public var repeated: Int

    public init(dropped: Int, corrupt: Int, timestampDiscontinuities: Int, repeated: Int = 0) {
        self.dropped = dropped
        self.corrupt = corrupt
        self.timestampDiscontinuities = timestampDiscontinuities
        self.repeated = repeated
    }
}
