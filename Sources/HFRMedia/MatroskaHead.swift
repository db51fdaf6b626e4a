#if canImport(Glibc)
    import Glibc
#endif

/// The head of a Matroska file: its EBML header and the segment's elements before the first
/// `Cluster` (`SeekHead`, `Info`, `Tracks`, `Chapters`, `Tags` where FFmpeg 5.1 puts them), read
/// and rewritten in place at the same length. hfr's patches of what FFmpeg's muxer cannot write
/// (`MatroskaRotationPatch`, `MatroskaTimestampScalePatch`) change the file through it.
enum MatroskaHead {
    static let clusterID: UInt32 = 0x1F43_B675
    /// What is read at first: FFmpeg's head is a few kilobytes.
    static let firstRead = 1 << 20
    /// The most read: tags or chapters that long are not hfr's.
    static let largest = 64 << 20

    /// Reads the head of the file at `path`, hands it to `patch` and writes back what it returns
    /// (as long as the head; nothing is written when it is unchanged).
    static func rewrite(fileAt path: String, _ patch: ([UInt8]) throws(AVFailure) -> [UInt8]) throws(AVFailure) {
        let fd = FileSystem.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw AVFailure(errno: .current, operation: "open \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw AVFailure(errno: .current, operation: "stat \(path)") }
        let fileSize = Int(info.st_size)
        var head = try read(fd, count: min(fileSize, firstRead), path: path)
        let needed = extent(head)
        if needed > head.count, needed <= min(fileSize, largest) { head = try read(fd, count: needed, path: path) }
        let patched = try patch(head)
        guard patched != head else { return }
        precondition(patched.count == head.count, "a head patch must keep the head's length")
        let written = patched.withUnsafeBytes { pwrite(fd, $0.baseAddress, patched.count, 0) }
        guard written == patched.count else { throw AVFailure(errno: .current, operation: "write \(path)") }
    }

    /// Where the segment's last element before the first `Cluster` ends, as far as `bytes` tell
    /// (0 when they are not EBML): how much of the file the head is.
    static func extent(_ bytes: [UInt8]) -> Int {
        guard let header = EBMLElement(bytes, at: 0), let segment = EBMLElement(bytes, at: header.end) else { return 0 }
        var offset = segment.dataStart
        while offset < bytes.count, let element = EBMLElement(bytes, at: offset), element.id != clusterID {
            offset = element.end
        }
        return offset
    }

    private static func read(_ fd: Int32, count: Int, path: String) throws(AVFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        guard read == count else { throw AVFailure(errno: .current, operation: "read \(path)") }
        return bytes
    }
}
