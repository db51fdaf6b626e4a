import HFRMedia

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

    init(_ operation: String, path: String, errno: Errno) {
        self.init(operation, path: path, errno: errno.rawValue)
    }

    /// A request the driver refused, under the request's name.
    init(_ request: V4L2Request, path: String, errno: Errno) {
        self.init(request.name, path: path, errno: errno.rawValue)
    }

    /// The errno by name (`.tryAgain`, `.noSuchDevice`); nil for failures hfr detects.
    var code: Errno? { errno.map(Errno.init(rawValue:)) }

    /// The kernel's text for the errno, or hfr's own detail.
    public var cause: String {
        if let detail { return detail }
        return code?.description ?? "failed"
    }

    public var description: String { "\(operation) on \(path): \(cause)" }

    /// The device went away (unplugged, driver unbound): the kernel answers ENODEV from then on.
    public var isDisconnect: Bool { code == .noSuchDevice }

    /// The driver holds another mode than the one set (read back after VIDIOC_S_FMT/S_PARM).
    public var isModeNotGranted: Bool { operation == V4L2Failure.readBack }
    static let readBack = "mode read-back"
}
