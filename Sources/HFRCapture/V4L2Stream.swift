internal import CV4L2
import HFRMedia

/// The streaming I/O of a capture node with memory-mapped buffers: REQBUFS, QUERYBUF, mmap, QBUF
/// and STREAMON to start; poll and DQBUF for each filled buffer, QBUF to give it back; STREAMOFF,
/// munmap and REQBUFS(0) when released. Notices a camera that stopped delivering.
final class V4L2Stream {
    let device: V4L2Device
    /// How long without a frame (µs) before the camera counts as stalled.
    let stallLimit: Int64
    /// The mapped buffers, by V4L2 buffer index.
    private(set) var buffers: [UnsafeMutableRawBufferPointer] = []
    private var isStreaming = false
    /// When the current run of empty polls began (monotonic µs).
    private var idleSince: Int64?

    /// How long one wait for a frame lasts, so the caller can check for a stop between waits.
    static let pollMilliseconds: Int32 = 200

    /// A buffer the driver filled, until it is given back with `requeue`.
    struct Filled {
        fileprivate var buffer: v4l2_buffer

        /// The V4L2 buffer index (into `buffers`).
        var index: Int { Int(buffer.index) }
        /// The driver's frame counter (wraps at 2^32).
        var sequence: UInt32 { buffer.sequence }
        /// The capture time, µs on the clock the flags name.
        var timestamp: Int64 { Int64(buffer.timestamp.tv_sec) * 1_000_000 + Int64(buffer.timestamp.tv_usec) }
        var bytesUsed: Int { Int(buffer.bytesused) }
        /// The driver flagged the data as damaged (`V4L2_BUF_FLAG_ERROR`).
        var isError: Bool { buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 }
        /// The timestamp is on CLOCK_MONOTONIC (`V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`).
        var isMonotonic: Bool {
            buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        }
    }

    init(device: V4L2Device, stallLimit: Int64) {
        self.device = device
        self.stallLimit = stallLimit
    }

    deinit {
        if isStreaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = try? device.ioctl(.streamOff, &type)
        }
        for buffer in buffers { device.unmap(buffer) }
        if !buffers.isEmpty {
            var request = v4l2_requestbuffers()
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            _ = try? device.ioctl(.reqBufs, &request)
        }
    }

    /// Allocates and maps `bufferCount` buffers, queues them and starts streaming.
    func start(bufferCount: Int) throws(V4L2Failure) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(bufferCount)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.ioctl(.reqBufs, &request)
        guard request.count >= 2 else {
            throw V4L2Failure(
                V4L2Request.reqBufs.name, path: device.path, detail: "the driver gave \(request.count) buffers")
        }
        for index in 0..<request.count {
            var buffer = V4L2Stream.buffer(index: index)
            try device.ioctl(.queryBuf, &buffer)
            buffers.append(try device.map(length: Int(buffer.length), offset: Int(buffer.m.offset)))
            try device.ioctl(.qBuf, &buffer)
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.ioctl(.streamOn, &type)
        isStreaming = true
    }

    /// The next filled buffer, waiting up to 200 ms; nil when none came (throws once none came for
    /// `stallLimit`).
    func dequeue() throws(V4L2Failure) -> Filled? {
        while true {
            guard try device.waitReadable(milliseconds: V4L2Stream.pollMilliseconds) else {
                try checkStall()
                return nil
            }
            var buffer = V4L2Stream.buffer(index: 0)
            do {
                try device.ioctl(.dqBuf, &buffer)
            } catch {
                // Readable but nothing to take (an event woke poll, or another reader was first).
                if error.code == .tryAgain { continue }
                throw error
            }
            idleSince = nil
            return Filled(buffer: buffer)
        }
    }

    /// Gives a buffer back to the driver to fill again.
    func requeue(_ filled: Filled) {
        var buffer = filled.buffer
        buffer.bytesused = 0
        buffer.flags = 0
        // A failure here shows at the next DQBUF (the driver runs out of buffers, or is gone).
        _ = try? device.ioctl(.qBuf, &buffer)
    }

    /// Counts an empty wait; throws when the camera has delivered nothing for `stallLimit`.
    private func checkStall() throws(V4L2Failure) {
        let now = Clock.monotonicMicroseconds
        if let since = idleSince, now - since > stallLimit {
            throw V4L2Failure(
                V4L2Request.dqBuf.name, path: device.path,
                detail: "no frame for \((now - since) / 1_000_000) s (the camera stalled)")
        }
        if idleSince == nil { idleSince = now }
    }

    private static func buffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }
}
