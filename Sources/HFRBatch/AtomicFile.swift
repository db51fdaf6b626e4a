import Foundation
import HFRMedia

/// Writing a whole small file (a report, a resume record) or nothing, through `AtomicOutput`.
public enum AtomicFile {
    /// Writes `data` to `path` whole, or leaves `path` as it was; false when it cannot.
    public static func write(_ data: Data, to path: String) -> Bool {
        let output = AtomicOutput(path: path)
        // When this fails, dropping `output` removes whatever was written.
        guard FileManager.default.createFile(atPath: output.temporaryPath, contents: data) else { return false }
        do {
            try output.commit()
            return true
        } catch {
            return false
        }
    }
}
