#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX error number with readable names (as swift-system's `Errno`), so errors are classified
/// by name, not by a number or a message text.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now.
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// The C library's text, e.g. "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }

    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let ioError = Errno(rawValue: EIO)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let tryAgain = Errno(rawValue: EAGAIN)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let busy = Errno(rawValue: EBUSY)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let crossDeviceLink = Errno(rawValue: EXDEV)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let notADirectory = Errno(rawValue: ENOTDIR)
    public static let isADirectory = Errno(rawValue: EISDIR)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let notATerminal = Errno(rawValue: ENOTTY)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
}

/// Runs a system call again while a signal interrupts it (EINTR); returns its last result.
public func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
    var result: T
    repeat { result = call() } while result < 0 && Glibc.errno == EINTR
    return result
}
