import Foundation
import HFRTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/install` run once per test process into a temporary prefix: a real static release
/// build (in .build-static, incremental after the first), man pages and completions.
final class Installation: Sendable {
    static let shared: Result<Installation, any Error> = Result { try Installation() }

    let directory: TemporaryDirectory
    let prefix: String
    /// What scripts/install printed (its build time among it).
    let log: String

    var hfr: String { prefix + "/bin/hfr" }

    private init() throws {
        directory = try TemporaryDirectory()
        prefix = directory.path("prefix")
        let r = try Tool.run(Fixtures.root.appendingPathComponent("scripts/install").path, [prefix])
        log = r.stderr
        guard r.status == 0 else { throw InstallFailure("scripts/install exited \(r.status):\n\(r.stderr)") }
    }

    /// Runs `script` with `sh -c` as root in a private mount namespace (unshare -m), where it may
    /// bind-mount over system directories without anyone else seeing it.
    static func inPrivateMounts(_ script: String, _ arguments: [String] = []) throws -> ToolResult {
        guard getuid() == 0 else {
            throw InstallFailure(
                "these tests need root: unshare -m and mount --bind hide the toolchain (CI runs as root)")
        }
        return try Tool.run("unshare", ["-m", "--propagation", "private", "sh", "-c", script, "sh"] + arguments)
    }

    /// The Swift toolchain's root, e.g. /opt/swift (above the usr/bin holding `swift`).
    static func toolchainRoot() throws -> String {
        let r = try Tool.run("sh", ["-c", "readlink -f \"$(command -v swift)\""])
        var root = URL(fileURLWithPath: r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            .deletingLastPathComponent().deletingLastPathComponent()
        if root.lastPathComponent == "usr" { root = root.deletingLastPathComponent() }
        guard r.status == 0, root.path != "/" else { throw InstallFailure("swift is not on PATH") }
        return root.path
    }

    /// The package owning `path` (`dpkg -S`), nil when none does.
    static func owner(_ path: String) throws -> String? {
        for candidate in [path, URL(fileURLWithPath: path).resolvingSymlinksInPath().path] {
            let r = try Tool.run("dpkg", ["-S", candidate])
            if r.status == 0, let colon = r.stdout.firstIndex(of: ":") { return String(r.stdout[..<colon]) }
        }
        return nil
    }
}

struct InstallFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
