import HFRMedia

/// The calls hfr makes on an open V4L2 node, as v4l-helpers' table of functions: the kernel behind
/// a file descriptor (`V4L2KernelDriver`), or scripted answers in a test.
///
/// Each call answers with the errno it failed with; naming the failure (request, path) is
/// `V4L2Device`'s job. None of them returns EINTR: a call a signal interrupted is made again.
protocol V4L2Driver: AnyObject {
    /// One ioctl with its single pointer argument (the only shape V4L2 uses); nil on success.
    func ioctl(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer) -> Errno?

    /// Maps the `length` bytes of a capture buffer at the `offset` VIDIOC_QUERYBUF gave, read-write.
    func map(length: Int, offset: Int) -> Result<UnsafeMutableRawBufferPointer, Errno>

    /// Releases memory `map` returned.
    func unmap(_ buffer: UnsafeMutableRawBufferPointer)

    /// Waits up to `milliseconds` for a filled buffer (or an event); false when the time ran out.
    func waitReadable(milliseconds: Int32) -> Result<Bool, Errno>
}
