internal import CV4L2
import HFRMedia

/// An open V4L2 device node: owns its driver (the file descriptor) and names every failed call.
///
/// A final class, not `~Copyable`: the capture thread and the command share one open node (the
/// command configures it, the capture thread streams from it), and V4L2 settings live as long as
/// the file descriptor does.
/// Unchecked Sendable: one thread at a time uses the node (set up, then handed to the capture thread).
public final class V4L2Device: @unchecked Sendable {
    public let path: String
    /// The calls on the node: the kernel's driver, or a scripted one in tests.
    let driver: any V4L2Driver
    /// What QUERYCAP said about this node.
    public let capabilities: Capabilities

    /// What a node is and can do (from VIDIOC_QUERYCAP, the node's own caps, not the driver's).
    public struct Capabilities: Sendable, Equatable {
        public var driver: String
        public var card: String
        public var busInfo: String
        /// The capabilities of this node (`device_caps`).
        public var deviceCaps: UInt32

        /// A video capture node, through the single- or the multi-planar API.
        public var canCapture: Bool { canCaptureSinglePlanar || canCaptureMultiplanar }
        public var canCaptureSinglePlanar: Bool { deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
        public var canCaptureMultiplanar: Bool { deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 }
        /// The node captures only through the multi-planar API (`V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE`:
        /// HDMI receivers, SoC camera interfaces); a node offering both keeps the single-planar one.
        public var isMultiplanar: Bool { canCaptureMultiplanar && !canCaptureSinglePlanar }
        public var canStream: Bool { deviceCaps & UInt32(V4L2_CAP_STREAMING) != 0 }

        /// What the node is, for messages about nodes that cannot capture.
        public var kind: String {
            let names: [(Int32, String)] = [
                (V4L2_CAP_VIDEO_CAPTURE, "video capture"), (V4L2_CAP_VIDEO_CAPTURE_MPLANE, "multi-planar capture"),
                (V4L2_CAP_VIDEO_OUTPUT, "video output"), (V4L2_CAP_VIDEO_OUTPUT_MPLANE, "video output"),
                (V4L2_CAP_VIDEO_M2M, "memory-to-memory"), (V4L2_CAP_VIDEO_M2M_MPLANE, "memory-to-memory"),
                (V4L2_CAP_META_CAPTURE, "metadata capture"), (V4L2_CAP_VBI_CAPTURE, "VBI capture"),
                (V4L2_CAP_SDR_CAPTURE, "SDR receiver"), (V4L2_CAP_RADIO, "radio"), (V4L2_CAP_TOUCH, "touch"),
                (V4L2_CAP_VIDEO_OVERLAY, "video overlay"),
            ]
            var seen: [String] = []
            for (bit, name) in names where deviceCaps & UInt32(bit) != 0 && !seen.contains(name) {
                seen.append(name)
            }
            return seen.isEmpty ? "no known function" : seen.joined(separator: ", ")
        }
    }

    /// Opens the node and asks what it is. Non-blocking: the capture loop waits in poll.
    public convenience init(path: String) throws(V4L2Failure) {
        let driver: V4L2KernelDriver
        do {
            driver = try V4L2KernelDriver(path: path)
        } catch {
            throw V4L2Failure("open", path: path, errno: error)
        }
        try self.init(path: path, driver: driver)
    }

    /// A node behind `driver` (the kernel's, or a scripted one in tests), asked what it is.
    init(path: String, driver: any V4L2Driver) throws(V4L2Failure) {
        var cap = v4l2_capability()
        if let error = driver.ioctl(.queryCap, &cap) { throw V4L2Failure(.queryCap, path: path, errno: error) }
        let hasDeviceCaps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
        capabilities = Capabilities(
            driver: V4L2Device.string(cap.driver), card: V4L2Device.string(cap.card),
            busInfo: V4L2Device.string(cap.bus_info), deviceCaps: hasDeviceCaps ? cap.device_caps : cap.capabilities)
        self.driver = driver
        self.path = path
    }

    /// The buffer type of the node's capture queue, for every format, buffer and stream call.
    var bufferType: UInt32 {
        (capabilities.isMultiplanar ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE).rawValue
    }

    /// Makes one ioctl; throws the request's name and errno.
    func ioctl<T>(_ request: V4L2Request, _ argument: inout T) throws(V4L2Failure) {
        let error = withUnsafeMutablePointer(to: &argument) { driver.ioctl(request, $0) }
        if let error { throw V4L2Failure(request, path: path, errno: error) }
    }

    /// Like `ioctl`, but reports "no more entries" (EINVAL, the end of every V4L2 enumeration) as false.
    func enumerate<T>(_ request: V4L2Request, _ argument: inout T) throws(V4L2Failure) -> Bool {
        do {
            try ioctl(request, &argument)
            return true
        } catch {
            if error.code == .invalidArgument { return false }
            throw error
        }
    }

    /// Maps a capture buffer (`length` and `offset` from VIDIOC_QUERYBUF).
    func map(length: Int, offset: Int) throws(V4L2Failure) -> UnsafeMutableRawBufferPointer {
        switch driver.map(length: length, offset: offset) {
        case .success(let buffer): return buffer
        case .failure(let error): throw V4L2Failure("mmap", path: path, errno: error)
        }
    }

    func unmap(_ buffer: UnsafeMutableRawBufferPointer) { driver.unmap(buffer) }

    /// Waits up to `milliseconds` for a filled buffer; false when none came.
    func waitReadable(milliseconds: Int32) throws(V4L2Failure) -> Bool {
        switch driver.waitReadable(milliseconds: milliseconds) {
        case .success(let isReadable): return isReadable
        case .failure(let error): throw V4L2Failure("poll", path: path, errno: error)
        }
    }

    /// A fixed-size NUL-terminated C char array (as Swift imports `__u8 name[32]`) as a String.
    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
