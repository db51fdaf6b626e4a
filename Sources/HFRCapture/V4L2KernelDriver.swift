internal import CV4L2
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's V4L2 driver behind an open device node: owns the file descriptor and closes it.
final class V4L2KernelDriver: V4L2Driver {
    private let fd: Int32

    /// Opens `path` non-blocking (the capture loop waits in poll); throws the errno of `open`.
    init(path: String) throws(Errno) {
        let fd = FileSystem.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Errno.current }
        self.fd = fd
    }

    deinit { close(fd) }

    func ioctl(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer) -> Errno? {
        // ioctl is variadic in C; the shim's typed wrapper is what Swift can call.
        retryingInterrupts { hfr_v4l2_ioctl(fd, request.code, argument) } < 0 ? Errno.current : nil
    }

    func map(length: Int, offset: Int) -> Result<UnsafeMutableRawBufferPointer, Errno> {
        let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let mapped, mapped != MAP_FAILED else { return .failure(Errno.current) }
        return .success(UnsafeMutableRawBufferPointer(start: mapped, count: length))
    }

    func unmap(_ buffer: UnsafeMutableRawBufferPointer) {
        munmap(buffer.baseAddress, buffer.count)
    }

    func waitReadable(milliseconds: Int32) -> Result<Bool, Errno> {
        var poller = pollfd(fd: fd, events: Int16(POLLIN | POLLPRI), revents: 0)
        let ready = retryingInterrupts { poll(&poller, 1, milliseconds) }
        return ready < 0 ? .failure(Errno.current) : .success(ready > 0)
    }
}
