import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writing a whole small file (a report, a resume record) or nothing, through `AtomicOutput`.
public enum AtomicFile {
    /// Writes `data` to `path` whole, or leaves `path` as it was; false when it cannot.
    public static func write(_ data: Data, to path: String) -> Bool {
        let output = AtomicOutput(path: path)
        // When this fails, dropping `output` removes whatever was written. (Written by hand:
        // Foundation's own writes go through a temporary file of their own, which /proc has not.)
        let fd = FileSystem.open(output.temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return false }
        let written = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        guard close(fd) == 0, written else { return false }
        do {
            try output.commit()
            return true
        } catch {
            return false
        }
    }
}
