import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Writing a whole file or nothing: a temporary name in the same directory, then rename(2).
public enum AtomicFile {
    /// Writes `data` to `path` whole, or leaves `path` as it was; false when it cannot.
    public static func write(_ data: Data, to path: String) -> Bool {
        let temporary = AtomicOutput.temporaryPath(for: path)
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return false }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
