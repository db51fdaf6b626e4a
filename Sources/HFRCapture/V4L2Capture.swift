import CFFmpeg
import CV4L2
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Streams frames from a V4L2 capture node with memory-mapped buffers.
///
/// hfr talks to the driver itself instead of through libavdevice's `v4l2` input because recording
/// needs what that input hides: `v4l2_buffer.sequence` (drops are counted from its gaps), the
/// `V4L2_BUF_FLAG_ERROR` flag (such frames are counted and skipped instead of failing the read), the
/// errno of every ioctl (an unplugged camera, ENODEV, is a clean stop), and the granted mode.
public final class V4L2Capture: FrameSource, @unchecked Sendable {
    public let device: V4L2Device
    /// What the driver granted: format, size and rate, read back after setting them.
    public let granted: Granted
    public var videoTimeBase: Rational { granted.interval }
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var isStreaming = false
    private var timeline: FrameTimeline
    private var corruptFrames = 0
    private var idleSince: Int64?
    private let jpeg: JPEGDecoder?
    /// The libav format of an uncompressed mode (nil for MJPEG and formats hfr cannot record).
    private let rawFormat: PixelFormat?
    /// Whether a frame's wall-clock time has been handed out (only the first one is used).
    private var sentWallClock = false

    /// The mode as the driver holds it.
    public struct Granted: Sendable, Equatable {
        public var format: V4L2PixelFormat
        public var width: Int
        public var height: Int
        public var bytesPerLine: Int
        /// Frame interval (seconds per frame), exact.
        public var interval: Rational
        public var rate: Rational { interval.reciprocal }
    }

    /// Sets format, size and interval together (as AVFoundation's `activeFormat` with its frame
    /// durations under `lockForConfiguration`) and reads back what the driver granted; any
    /// difference from `choice` is an error — never a silent fallback.
    public init(device: V4L2Device, choice: ModeSelector.Choice) throws(V4L2Failure) {
        let mode = choice.mode
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(mode.width)
        format.fmt.pix.height = UInt32(mode.height)
        format.fmt.pix.pixelformat = mode.format.code
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try device.control(HFR_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format)
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parm.parm.capture.timeperframe = v4l2_fract(
            numerator: UInt32(choice.rate.denominator), denominator: UInt32(choice.rate.numerator))
        try device.control(HFR_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parm)

        // Read back both: S_PARM may change with the format and drivers adjust silently.
        try device.control(HFR_VIDIOC_G_FMT, "VIDIOC_G_FMT", &format)
        try device.control(HFR_VIDIOC_G_PARM, "VIDIOC_G_PARM", &parm)
        let pix = format.fmt.pix
        let tpf = parm.parm.capture.timeperframe
        let granted = Granted(
            format: V4L2PixelFormat(code: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
            bytesPerLine: Int(pix.bytesperline),
            interval: V4L2FrameInterval.interval(tpf))
        let asked = "\(mode.format.fourCC) \(mode.width)x\(mode.height) at \(ModeSelector.rateText(choice.rate)) fps"
        let got =
            "\(granted.format.fourCC) \(granted.width)x\(granted.height) at \(ModeSelector.rateText(granted.rate)) fps"
        guard granted.format == mode.format, granted.width == mode.width, granted.height == mode.height,
            granted.interval == choice.rate.reciprocal
        else {
            throw V4L2Failure(
                V4L2Failure.readBack, path: device.path, detail: "asked for \(asked), the driver granted \(got)")
        }
        if granted.format.conversion == .jpeg {
            do {
                jpeg = try JPEGDecoder(width: granted.width, height: granted.height)
            } catch {
                throw V4L2Failure("MJPEG decoder", path: device.path, detail: error.description)
            }
        } else {
            jpeg = nil
        }
        if case .raw(let format) = granted.format.conversion { rawFormat = format } else { rawFormat = nil }
        self.device = device
        self.granted = granted
        timeline = FrameTimeline(interval: granted.interval)
    }

    deinit {
        if isStreaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = try? device.control(HFR_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
        }
        for buffer in buffers { munmap(buffer.baseAddress, buffer.count) }
        if !buffers.isEmpty {
            var request = v4l2_requestbuffers()
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            _ = try? device.control(HFR_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        }
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
        let bufferCount = bufferCount ?? defaultBufferCount
        var request = v4l2_requestbuffers()
        request.count = UInt32(bufferCount)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.control(HFR_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        guard request.count >= 2 else {
            throw V4L2Failure("VIDIOC_REQBUFS", path: device.path, detail: "the driver gave \(request.count) buffers")
        }
        for index in 0..<request.count {
            var buffer = V4L2Capture.buffer(index: index)
            try device.control(HFR_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
            let mapped = mmap(
                nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, device.fd, off_t(buffer.m.offset))
            guard let mapped, mapped != MAP_FAILED else { throw V4L2Failure("mmap", path: device.path, errno: errno) }
            buffers.append(UnsafeMutableRawBufferPointer(start: mapped, count: Int(buffer.length)))
            try device.control(HFR_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.control(HFR_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        isStreaming = true
    }

    /// How long without a frame before the camera counts as stalled: 3 s, or 4 intervals if longer.
    var stallLimit: Int64 { max(3_000_000, (Rational(4_000_000) * granted.interval).rounded()) }

    /// Waits up to 200 ms for a frame. Frames flagged with errors are counted and skipped.
    public func next() throws -> CaptureItem? {
        while true {
            var poller = pollfd(fd: device.fd, events: Int16(POLLIN | POLLPRI), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready < 0 {
                if errno == EINTR { continue }
                throw V4L2Failure("poll", path: device.path, errno: errno)
            }
            if ready == 0 {
                let now = av_gettime_relative()
                if let since = idleSince, now - since > stallLimit {
                    throw V4L2Failure(
                        "VIDIOC_DQBUF", path: device.path,
                        detail: "no frame for \((now - since) / 1_000_000) s (the camera stalled)")
                }
                if idleSince == nil { idleSince = now }
                return .idle
            }
            var buffer = V4L2Capture.buffer(index: 0)
            do {
                try device.control(HFR_VIDIOC_DQBUF, "VIDIOC_DQBUF", &buffer)
            } catch {
                if error.errno == EAGAIN { continue }
                throw error
            }
            idleSince = nil
            let timestamp = Int64(buffer.timestamp.tv_sec) * 1_000_000 + Int64(buffer.timestamp.tv_usec)
            defer { requeue(&buffer) }
            guard let index = timeline.place(sequence: buffer.sequence, timestamp: timestamp) else { continue }
            let data = UnsafeRawBufferPointer(
                rebasing: buffers[Int(buffer.index)].prefix(Int(buffer.bytesused)))
            let frame: Frame?
            if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 {
                frame = nil
            } else {
                frame = try picture(from: data)
            }
            guard let frame else {
                corruptFrames += 1
                continue
            }
            frame.pts = index
            // The capture stage lines audio up with the first frame's wall-clock time only.
            let clock = sentWallClock ? nil : wallClock(of: timestamp, flags: buffer.flags)
            sentWallClock = true
            return .video(frame, wallClock: clock)
        }
    }

    private func requeue(_ buffer: inout v4l2_buffer) {
        buffer.bytesused = 0
        buffer.flags = 0
        // A failure here shows at the next DQBUF (the driver runs out of buffers, or is gone).
        _ = try? device.control(HFR_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
    }

    /// Copies the buffer into an owned frame (the buffer goes back to the driver at once); nil when
    /// it holds less than a whole picture.
    private func picture(from data: UnsafeRawBufferPointer) throws -> Frame? {
        if let jpeg { return try jpeg.decode(data) }
        guard let pixelFormat = rawFormat,
            let view = try Frame.view(
                of: data, width: granted.width, height: granted.height, format: pixelFormat,
                bytesPerLine: granted.bytesPerLine)
        else { return nil }
        return try view.copyPicture()
    }

    /// The wall-clock time of a monotonic capture timestamp; nil when the driver's clock is not
    /// the monotonic clock or the timestamp is implausible (wrapped), so the arrival time is used.
    private func wallClock(of timestamp: Int64, flags: UInt32) -> Int64? {
        guard flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) else {
            return nil
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let age = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000 - timestamp
        guard (0..<1_000_000).contains(age) else { return nil }
        return av_gettime() - age
    }

    private static func buffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }
}
