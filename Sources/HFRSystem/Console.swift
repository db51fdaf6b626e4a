#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered writes to the standard streams, safe from any thread.
///
/// `write(2)` instead of stdio: the C `stderr` global is not concurrency-safe to touch from Swift 6,
/// and lines from stage threads must not interleave mid-line.
public enum Console {
    /// Writes `text` to standard error as is (file names' bytes that are not UTF-8 as `\xff`).
    public static func error(_ text: String) { write(text, to: 2) }

    /// Writes `text` to standard output as is (file names' bytes that are not UTF-8 as `\xff`).
    public static func output(_ text: String) { write(text, to: 1) }

    /// Whether file descriptor `fd` is a terminal (for live status lines).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    static func write(_ text: String, to fd: Int32) {
        // A file name's bytes that are not UTF-8 (`PathBytes`) shown as `\xff`: the streams stay text.
        var text = text.displayPath
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
