import HFRMedia

/// Streams frames from a V4L2 capture node with memory-mapped buffers.
///
/// hfr talks to the driver itself instead of through libavdevice's `v4l2` input because recording
/// needs what that input hides: `v4l2_buffer.sequence` (drops are counted from its gaps), the
/// `V4L2_BUF_FLAG_ERROR` flag (such frames are counted and skipped instead of failing the read), the
/// errno of every ioctl (an unplugged camera, ENODEV, is a clean stop), and the granted mode.
///
/// The facade over three parts: `V4L2ModeNegotiation` sets the mode, `V4L2Stream` moves buffers,
/// `V4L2FrameCopy` turns them into frames; here they are placed on the timeline and losses counted.
/// Unchecked Sendable: one thread at a time uses it (set up by the command, then the capture thread).
public final class V4L2Capture: FrameSource, @unchecked Sendable {
    public let device: V4L2Device
    /// What the driver granted: format, size and rate, read back after setting them.
    public let granted: Granted
    public var videoTimeBase: Rational { granted.interval }
    private let stream: V4L2Stream
    private let copier: V4L2FrameCopy
    private var timeline: FrameTimeline
    private var corruptFrames = 0
    /// Whether a frame's wall-clock time has been handed out (only the first one is used).
    private var sentWallClock = false
    /// An MJPEG mode's pictures leave `next()` compressed (`.jpeg`), for a decode stage on other
    /// threads; otherwise they are decoded on the capture thread.
    public var deliversJPEG = false
    /// Whether the granted mode's pictures are JPEGs.
    public var isJPEG: Bool { copier.isJPEG }

    /// The mode as the driver holds it.
    public struct Granted: Sendable, Equatable {
        public var format: V4L2PixelFormat
        public var width: Int
        public var height: Int
        public var bytesPerLine: Int
        /// Frame interval (seconds per frame), exact.
        public var interval: Rational
        /// Each V4L2 plane's stride on a multi-planar node (one buffer per plane); empty on a
        /// single-planar one.
        public var planeBytesPerLine: [Int] = []
        public var rate: Rational { interval.reciprocal }
        /// Buffers on a multi-planar node have this many planes (0: single-planar API).
        var planeCount: Int { planeBytesPerLine.count }
    }

    /// Sets format, size and interval together (as AVFoundation's `activeFormat` with its frame
    /// durations under `lockForConfiguration`) and reads back what the driver granted; any
    /// difference from `choice` is an error — never a silent fallback.
    public init(device: V4L2Device, choice: ModeSelector.Choice) throws(V4L2Failure) {
        let granted = try V4L2ModeNegotiation.negotiate(choice, on: device)
        do {
            copier = try V4L2FrameCopy(granted: granted)
        } catch {
            throw V4L2Failure("MJPEG decoder", path: device.path, detail: error.description)
        }
        self.device = device
        self.granted = granted
        timeline = FrameTimeline(interval: granted.interval)
        stream = V4L2Stream(
            device: device, stallLimit: V4L2Capture.stallLimit(interval: granted.interval),
            planeCount: granted.planeCount)
    }

    public var videoWidth: Int { granted.width }
    public var videoHeight: Int { granted.height }
    public var sourcePixelFormat: String? { granted.format.fourCC }
    public var audio: StreamInfo? { nil }
    public var losses: SourceLosses? {
        SourceLosses(
            dropped: timeline.dropped, corrupt: corruptFrames,
            timestampDiscontinuities: timeline.timestampDiscontinuities, repeated: timeline.repeats)
    }

    /// Buffers for half a second of frames (8 to 32): slack for a capture thread that is briefly
    /// late, so the driver does not drop while the encoder catches up.
    public var defaultBufferCount: Int { min(32, max(8, Int(granted.rate.rounded()) / 2)) }

    /// Allocates and maps `count` buffers (default: `defaultBufferCount`), queues them and starts streaming.
    public func start(bufferCount: Int? = nil) throws(V4L2Failure) {
        try stream.start(bufferCount: bufferCount ?? defaultBufferCount)
        do {
            try copier.attach(stream.buffers)
        } catch {
            throw V4L2Failure("frame view", path: device.path, detail: error.description)
        }
    }

    /// How long without a frame before the camera counts as stalled: 3 s, or 4 intervals if longer.
    var stallLimit: Int64 { stream.stallLimit }

    static func stallLimit(interval: Rational) -> Int64 {
        max(3_000_000, (Rational(4_000_000) * interval).rounded())
    }

    /// Waits up to 200 ms for a frame. Frames flagged with errors are counted and skipped.
    public func next() throws -> CaptureItem? {
        while true {
            guard let filled = try stream.dequeue() else { return .idle }
            defer { stream.requeue(filled) }
            guard let index = timeline.place(sequence: filled.sequence, timestamp: filled.timestamp) else { continue }
            if deliversJPEG, copier.isJPEG, !filled.isError {
                // Not a whole JPEG (no SOI, no EOI: torn, truncated, garbage): counted here, as a
                // flagged frame, whether or not the decoders would have had time for it.
                guard let jpeg = try jpeg(in: filled) else {
                    corruptFrames += 1
                    continue
                }
                jpeg.pts = index
                return .jpeg(jpeg, wallClock: firstWallClock(filled))
            }
            let frame = try filled.isError ? nil : picture(in: filled)
            guard let frame else {
                corruptFrames += 1
                continue
            }
            frame.pts = index
            return .video(frame, wallClock: firstWallClock(filled))
        }
    }

    /// An owned copy of the picture in `filled` (nil: torn or undecodable); a raw layout on a
    /// multi-planar node is read plane by plane.
    private func picture(in filled: V4L2Stream.Filled) throws(AVFailure) -> Frame? {
        if stream.planeCount > 0, case .raw = granted.format.conversion {
            return try copier.picture(inBuffer: filled.index, planes: filled.planeData, of: stream.planes)
        }
        return try copier.picture(inBuffer: filled.index, bytesUsed: filled.bytesUsed, of: stream.buffers)
    }

    /// The compressed picture in `filled` (nil: not a whole JPEG); on a multi-planar node the JPEG
    /// is plane 0's bytes from its data offset.
    private func jpeg(in filled: V4L2Stream.Filled) throws(AVFailure) -> Packet? {
        let plane = filled.planeData[0]
        return try copier.jpeg(
            inBuffer: filled.index, offset: plane.offset, bytesUsed: plane.bytesUsed, of: stream.buffers)
    }

    /// The capture stage lines audio up with the first frame's wall-clock time only.
    private func firstWallClock(_ filled: V4L2Stream.Filled) -> Int64? {
        defer { sentWallClock = true }
        return sentWallClock ? nil : wallClock(of: filled)
    }

    /// The wall-clock time of a buffer's monotonic capture timestamp; nil when the driver's clock
    /// is not the monotonic clock or the timestamp is implausible (wrapped), so the arrival time is used.
    private func wallClock(of filled: V4L2Stream.Filled) -> Int64? {
        guard filled.isMonotonic else { return nil }
        let age = Clock.monotonicMicroseconds - filled.timestamp
        guard (0..<1_000_000).contains(age) else { return nil }
        return Clock.wallMicroseconds - age
    }
}
