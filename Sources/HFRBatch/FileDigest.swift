import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 of a file, read in 1 MiB blocks (the resume record's proof that the input is unchanged).
public enum FileDigest {
    /// Lower-case hex SHA-256 of the file at `path`; nil when it cannot be read.
    public static func sha256(of path: String) -> String? {
        let fd = FileSystem.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard var digest = SHA256() else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = retryingInterrupts { read(fd, buffer.baseAddress, buffer.count) }
            if n < 0 { return nil }
            if n == 0 { break }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
        }
        return digest.hexDigest()
    }
}
