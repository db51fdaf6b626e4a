#if canImport(Glibc)
    import Glibc
#endif

/// A failed V4L2 call, named the way v4l2-ctl names them: `VIDIOC_S_FMT on /dev/video0: Invalid argument`.
public struct V4L2Failure: Error, Sendable, CustomStringConvertible {
    /// The request or system call (`VIDIOC_DQBUF`, `open`, `mmap`).
    public let operation: String
    public let path: String
    /// The errno the kernel returned; nil for failures hfr itself detects.
    public let errno: Int32?
    /// For failures hfr detects: what was wrong.
    public let detail: String?

    public init(_ operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
        detail = nil
    }

    public init(_ operation: String, path: String, detail: String) {
        self.operation = operation
        self.path = path
        errno = nil
        self.detail = detail
    }

    /// The kernel's text for the errno, or hfr's own detail.
    public var cause: String {
        if let detail { return detail }
        return errno.map { String(cString: strerror($0)) } ?? "failed"
    }

    public var description: String { "\(operation) on \(path): \(cause)" }

    /// The device went away (unplugged, driver unbound): the kernel answers ENODEV from then on.
    public var isDisconnect: Bool { errno == ENODEV }

    /// The driver holds another mode than the one set (read back after VIDIOC_S_FMT/S_PARM).
    public var isModeNotGranted: Bool { operation == V4L2Failure.readBack }
    static let readBack = "mode read-back"
}
