import Foundation

/// The committed fixtures under `Fixtures/`, found from this file's path.
public enum Fixtures {
    /// The repository root (three levels above this file).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Absolute path of fixture `name`.
    public static func path(_ name: String) -> String {
        root.appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    /// Copies fixture `name` into `directory` (tests never write next to the originals).
    public static func copy(_ name: String, to directory: TemporaryDirectory) throws -> String {
        let target = directory.path(name)
        try FileManager.default.copyItem(atPath: path(name), toPath: target)
        return target
    }
}

/// A directory under the system temp dir, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hfr-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Names of the entries now in the directory.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
