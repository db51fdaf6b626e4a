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

    /// The package owning each path (`dpkg -S`, one call: it is slow); a path no package owns is
    /// missing. dpkg knows a library under one of /lib and /usr/lib, so real paths are asked too.
    static func owners(_ paths: [String]) throws -> [String: String] {
        let real = Dictionary(
            paths.map { ($0, URL(fileURLWithPath: $0).resolvingSymlinksInPath().path) }, uniquingKeysWith: { a, _ in a }
        )
        let r = try Tool.run("dpkg", ["-S"] + Set(paths + real.values).sorted())
        var owner: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            guard let separator = line.range(of: ": /") else { continue }
            let package = line[..<separator.lowerBound].split(separator: ":")[0]
            owner[String(line[line.index(before: separator.upperBound)...])] = String(package)
        }
        return paths.reduce(into: [:]) { result, path in
            if let package = owner[path] ?? owner[real[path]!] { result[path] = package }
        }
    }

    /// The absolute paths ldd lists for `binary`.
    static func ldd(_ binary: String) throws -> [String] {
        try Tool.run("ldd", [binary]).stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("/") }.map(String.init)
        }
    }
}

struct InstallFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
