internal import CV4L2
import HFRMedia

/// The streaming I/O of a capture node with memory-mapped buffers: REQBUFS, QUERYBUF, mmap, QBUF
/// and STREAMON to start; poll and DQBUF for each filled buffer, QBUF to give it back; STREAMOFF,
/// munmap and REQBUFS(0) when released. Notices a camera that stopped delivering.
///
/// On a multi-planar node (`planeCount` > 0) every buffer has that many planes, each mapped on its
/// own (`v4l2_buffer.m.planes`, `length` = the plane count).
final class V4L2Stream {
    let device: V4L2Device
    /// How long without a frame (µs) before the camera counts as stalled.
    let stallLimit: Int64
    /// Planes per buffer on a multi-planar node; 0 on a single-planar one.
    let planeCount: Int
    /// The mapped buffers (on a multi-planar node their first planes), by V4L2 buffer index.
    private(set) var buffers: [UnsafeMutableRawBufferPointer] = []
    /// Every mapped plane of each buffer, by V4L2 buffer index (one each on a single-planar node).
    private(set) var planes: [[UnsafeMutableRawBufferPointer]] = []
    private var isStreaming = false
    /// When the current run of empty polls began (monotonic µs).
    private var idleSince: Int64?

    /// How long one wait for a frame lasts, so the caller can check for a stop between waits.
    static let pollMilliseconds: Int32 = 200

    /// A buffer the driver filled, until it is given back with `requeue`.
    struct Filled {
        fileprivate var buffer: v4l2_buffer
        /// The planes' part of the answer on a multi-planar node (empty on a single-planar one).
        fileprivate var planes: [v4l2_plane] = []

        /// The V4L2 buffer index (into `buffers`).
        var index: Int { Int(buffer.index) }
        /// The driver's frame counter (wraps at 2^32).
        var sequence: UInt32 { buffer.sequence }
        /// The capture time, µs on the clock the flags name.
        var timestamp: Int64 { Int64(buffer.timestamp.tv_sec) * 1_000_000 + Int64(buffer.timestamp.tv_usec) }
        /// The bytes filled (on a multi-planar node: in the first plane, from its start).
        var bytesUsed: Int { planes.first.map { Int($0.bytesused) } ?? Int(buffer.bytesused) }
        /// Where the picture starts in each plane and the bytes of it that were filled (one entry
        /// on a single-planar node).
        var planeData: [(offset: Int, bytesUsed: Int)] {
            if planes.isEmpty { return [(0, Int(buffer.bytesused))] }
            return planes.map { (Int($0.data_offset), Int($0.bytesused) - min(Int($0.data_offset), Int($0.bytesused))) }
        }
        /// The driver flagged the data as damaged (`V4L2_BUF_FLAG_ERROR`).
        var isError: Bool { buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 }
        /// The timestamp is on CLOCK_MONOTONIC (`V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`).
        var isMonotonic: Bool {
            buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        }
    }

    init(device: V4L2Device, stallLimit: Int64, planeCount: Int = 0) {
        self.device = device
        self.stallLimit = stallLimit
        self.planeCount = planeCount
    }

    deinit {
        if isStreaming {
            var type = Int32(device.bufferType)
            _ = try? device.ioctl(.streamOff, &type)
        }
        for buffer in planes.joined() { device.unmap(buffer) }
        if !planes.isEmpty {
            var request = v4l2_requestbuffers()
            request.type = device.bufferType
            request.memory = V4L2_MEMORY_MMAP.rawValue
            _ = try? device.ioctl(.reqBufs, &request)
        }
    }

    /// Allocates and maps `bufferCount` buffers, queues them and starts streaming.
    func start(bufferCount: Int) throws(V4L2Failure) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(bufferCount)
        request.type = device.bufferType
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.ioctl(.reqBufs, &request)
        guard request.count >= 2 else {
            throw V4L2Failure(
                V4L2Request.reqBufs.name, path: device.path, detail: "the driver gave \(request.count) buffers")
        }
        for index in 0..<request.count {
            var filled = Filled(buffer: buffer(index: index), planes: planeSlots)
            try call(.queryBuf, &filled)
            var mapped: [UnsafeMutableRawBufferPointer] = []
            if filled.planes.isEmpty {
                mapped.append(try device.map(length: Int(filled.buffer.length), offset: Int(filled.buffer.m.offset)))
            }
            for plane in filled.planes {
                mapped.append(try device.map(length: Int(plane.length), offset: Int(plane.m.mem_offset)))
            }
            planes.append(mapped)
            buffers.append(mapped[0])
            try call(.qBuf, &filled)
        }
        var type = Int32(device.bufferType)
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
            var filled = Filled(buffer: buffer(index: 0), planes: planeSlots)
            do {
                try call(.dqBuf, &filled)
            } catch {
                // Readable but nothing to take (an event woke poll, or another reader was first).
                if error.code == .tryAgain { continue }
                throw error
            }
            idleSince = nil
            return filled
        }
    }

    /// Gives a buffer back to the driver to fill again.
    func requeue(_ filled: Filled) {
        var filled = filled
        filled.buffer.bytesused = 0
        filled.buffer.flags = 0
        for i in filled.planes.indices { filled.planes[i].bytesused = 0 }
        // A failure here shows at the next DQBUF (the driver runs out of buffers, or is gone).
        _ = try? call(.qBuf, &filled)
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

    private func buffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = device.bufferType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        buffer.length = UInt32(planeCount)
        return buffer
    }

    /// Room for the driver's answer about each plane (none on a single-planar node).
    private var planeSlots: [v4l2_plane] { [v4l2_plane](repeating: v4l2_plane(), count: planeCount) }

    /// A buffer call; on a multi-planar node `m.planes` points at the planes for the call's duration.
    private func call(_ request: V4L2Request, _ filled: inout Filled) throws(V4L2Failure) {
        guard planeCount > 0 else { return try device.ioctl(request, &filled.buffer) }
        var buffer = filled.buffer
        let failure = filled.planes.withUnsafeMutableBufferPointer { planes -> V4L2Failure? in
            buffer.m.planes = planes.baseAddress
            do throws(V4L2Failure) {
                try device.ioctl(request, &buffer)
                return nil
            } catch {
                return error
            }
        }
        buffer.m.planes = nil
        filled.buffer = buffer
        if let failure { throw failure }
    }
}
