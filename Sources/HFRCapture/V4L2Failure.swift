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
    /// The ioctl request that failed, when it was one.
    let requestCode: UInt?
    /// The driver keeps another mode than the one set (found by the read-back).
    public let isModeNotGranted: Bool

    public init(_ operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
        detail = nil
        requestCode = nil
        isModeNotGranted = false
    }

    public init(_ operation: String, path: String, detail: String) {
        self.operation = operation
        self.path = path
        errno = nil
        self.detail = detail
        requestCode = nil
        isModeNotGranted = false
    }

    /// The mode read back after setting it is not the one asked for.
    static func modeNotGranted(path: String, detail: String) -> V4L2Failure {
        V4L2Failure(operation: "mode read-back", path: path, errno: nil, detail: detail, request: nil, notGranted: true)
    }

    private init(operation: String, path: String, errno: Int32?, detail: String?, request: UInt?, notGranted: Bool) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.detail = detail
        requestCode = request
        isModeNotGranted = notGranted
    }

    init(_ operation: String, path: String, errno: Errno) {
        self.init(operation, path: path, errno: errno.rawValue)
    }

    /// A request the driver refused, under the request's name.
    init(_ request: V4L2Request, path: String, errno: Errno) {
        self.init(
            operation: request.name, path: path, errno: errno.rawValue, detail: nil, request: request.code,
            notGranted: false)
    }

    /// The errno by name (`.tryAgain`, `.noSuchDevice`); nil for failures hfr detects.
    public var code: Errno? { errno.map(Errno.init(rawValue:)) }

    /// The kernel's text for the errno, or hfr's own detail.
    public var cause: String {
        if let detail { return detail }
        return code?.description ?? "failed"
    }

    public var description: String { "\(operation) on \(path): \(cause)" }

    /// The device went away (unplugged, driver unbound): the kernel answers ENODEV from then on.
    public var isDisconnect: Bool { code == .noSuchDevice }

    /// The node did not answer VIDIOC_QUERYCAP: with ENOTTY, it is not a V4L2 device at all.
    public var isCapabilityQuery: Bool { requestCode == V4L2Request.queryCap.code }
}
