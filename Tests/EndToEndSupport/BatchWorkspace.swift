import Foundation
import HFRTestSupport

/// A temporary folder of inputs copied from the fixtures and a manifest, for the batch tests.
package struct BatchWorkspace {
    package let dir: TemporaryDirectory

    package init() throws {
        dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("in"), withIntermediateDirectories: true)
    }

    /// Copies fixture `fixture` to `in/NAME` for each name.
    package func add(_ fixture: String, as names: [String]) throws {
        for name in names {
            try FileManager.default.copyItem(atPath: Fixtures.path(fixture), toPath: dir.path("in/\(name)"))
        }
    }

    /// Writes `text` as `batch.json` (or `name`); returns its path.
    @discardableResult
    package func manifest(_ text: String, name: String = "batch.json") throws -> String {
        try text.write(toFile: dir.path(name), atomically: true, encoding: .utf8)
        return dir.path(name)
    }

    /// Runs `hfr batch` with `arguments` (paths inside the workspace are absolute).
    package func batch(_ arguments: [String], environment: [String: String]? = nil) throws -> ToolResult {
        guard let environment else { return try Tool.hfr(["batch"] + arguments) }
        // A clean environment: the CI this test runs on may set shard variables of its own.
        let pairs = environment.map { "\($0.key)=\($0.value)" }.sorted()
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return try Tool.run("/usr/bin/env", ["-i", "PATH=\(path)"] + pairs + [Tool.hfrPath, "batch"] + arguments)
    }

    /// The jobs of a `--json-report` file.
    package func reportJobs(_ path: String) throws -> [[String: Any]] {
        let report = try Tool.json(String(contentsOfFile: path, encoding: .utf8))
        return report["jobs"] as? [[String: Any]] ?? []
    }

    /// Output files (not records, not hidden temporaries) under `out/`, relative to it, sorted.
    package func outputs() -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: dir.path("out"))) ?? []
        return names.filter { $0.hasSuffix(".mp4") || $0.hasSuffix(".mkv") }.filter {
            !($0 as NSString).lastPathComponent.hasPrefix(".")
        }.sorted()
    }

    /// Every hidden temporary (`.NAME.<pid>.tmp`) under `out/`.
    package func temporaries() -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: dir.path("out"))) ?? []
        return names.filter { $0.hasSuffix(".tmp") }
    }
}
