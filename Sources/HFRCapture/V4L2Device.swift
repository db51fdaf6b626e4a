import CV4L2

#if canImport(Glibc)
    import Glibc
#endif

/// An open V4L2 device node: owns the file descriptor and makes its ioctls.
///
/// A final class, not `~Copyable`: the capture thread and the command share one open node (the
/// command configures it, the capture thread streams from it), and V4L2 settings live as long as
/// the file descriptor does.
public final class V4L2Device: @unchecked Sendable {
    public let path: String
    let fd: Int32
    /// What QUERYCAP said about this node.
    public let capabilities: Capabilities

    /// What a node is and can do (from VIDIOC_QUERYCAP, the node's own caps, not the driver's).
    public struct Capabilities: Sendable, Equatable {
        public var driver: String
        public var card: String
        public var busInfo: String
        /// The capabilities of this node (`device_caps`).
        public var deviceCaps: UInt32

        public var canCapture: Bool { deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
        public var canCaptureMultiplanar: Bool { deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 }
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
    public init(path: String) throws(V4L2Failure) {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw V4L2Failure("open", path: path, errno: errno) }
        var cap = v4l2_capability()
        if V4L2Device.retrying({ hfr_v4l2_ioctl(fd, HFR_VIDIOC_QUERYCAP, &cap) }) < 0 {
            let e = errno
            close(fd)
            throw V4L2Failure("VIDIOC_QUERYCAP", path: path, errno: e)
        }
        let hasDeviceCaps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
        capabilities = Capabilities(
            driver: V4L2Device.string(cap.driver), card: V4L2Device.string(cap.card),
            busInfo: V4L2Device.string(cap.bus_info), deviceCaps: hasDeviceCaps ? cap.device_caps : cap.capabilities)
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Makes one ioctl, retrying when a signal interrupted it; throws the request's name and errno.
    @discardableResult
    func control<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(V4L2Failure) -> Int32 {
        let result = withUnsafeMutablePointer(to: &argument) { pointer in
            V4L2Device.retrying { hfr_v4l2_ioctl(fd, request, pointer) }
        }
        guard result >= 0 else { throw V4L2Failure(name, path: path, errno: errno) }
        return result
    }

    /// Like `control`, but reports "no more entries" (EINVAL, the end of every V4L2 enumeration) as false.
    func enumerate<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(V4L2Failure) -> Bool {
        do {
            try control(request, name, &argument)
            return true
        } catch {
            if error.errno == EINVAL { return false }
            throw error
        }
    }

    static func retrying(_ call: () -> Int32) -> Int32 {
        var result: Int32
        repeat { result = call() } while result < 0 && errno == EINTR
        return result
    }

    /// A fixed-size NUL-terminated C char array (as Swift imports `__u8 name[32]`) as a String.
    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
