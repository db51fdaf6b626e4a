import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 of a file, streamed through FFmpeg's `av_sha` (Foundation on Linux has no SHA-256).
public enum FileDigest {
    /// Lower-case hex SHA-256 of the file at `path`; nil when it cannot be read.
    public static func sha256(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let context = av_sha_alloc() else { return nil }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        av_sha_init(context, 256)
        let size = 1 << 20
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, size)
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            av_sha_update(context, buffer, n)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
