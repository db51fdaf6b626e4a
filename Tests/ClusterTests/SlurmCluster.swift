import Foundation
import HFRTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A private single-node Slurm (munged, slurmctld, slurmd on localhost) started by
/// `slurm-cluster.sh` in a directory of its own; `stop()` ends every daemon it started.
final class SlurmCluster {
    /// How a program run by `spawn` ended and what it printed.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    let directory: String
    var conf: String { directory + "/slurm.conf" }
    /// Seconds from nothing to the node idle, and (after `stop()`) from there to no daemon left.
    private(set) var startSeconds = 0.0
    private(set) var stopSeconds = 0.0
    private var running = false
    /// What `slurm-cluster.sh stop` said: when each phase ended.
    private(set) var stopLog = ""

    static let script = Fixtures.root.appendingPathComponent("Tests/ClusterTests/slurm-cluster.sh").path

    /// Starts the daemons; throws (with their logs) when Slurm cannot start: the test fails, never skips.
    /// `path`: the PATH the script runs with (default: this process's).
    init(directory: String, path: String? = nil) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let started = Date()
        let environment = path.map { ["PATH=\($0)"] } ?? []
        let r = try Self.spawn(
            "/usr/bin/env", environment + [Self.script, "start", directory], log: directory + "/start.out")
        startSeconds = Date().timeIntervalSince(started)
        guard r.status == 0 else {
            throw StartFailure(description: "Slurm did not start (exit \(r.status)):\n\(r.stdout)\(r.stderr)")
        }
        running = true
    }

    deinit { stop() }

    /// Cancels every job and stops the daemons (idempotent).
    func stop() {
        guard running else { return }
        running = false
        let started = Date()
        stopLog = (try? Self.spawn(Self.script, ["stop", directory], log: directory + "/stop.out"))?.stderr ?? ""
        stopSeconds = Date().timeIntervalSince(started)
    }

    /// Runs a Slurm client (sbatch, squeue, scancel) against this cluster, with `path` first on PATH.
    func client(_ tool: String, _ arguments: [String], path: String? = nil) throws -> Result {
        var environment = ["SLURM_CONF=\(conf)"]
        let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment.append("PATH=" + (path.map { $0 + ":" } ?? "") + inherited)
        return try Self.spawn("/usr/bin/env", environment + [tool] + arguments, log: directory + "/client.out")
    }

    /// Runs `executable` to its end, stdout and stderr into `log` (returned as stdout, and stderr),
    /// reaped with waitpid(2): Foundation's Process missed the exit of the start script once its
    /// daemons had detached (waitUntilExit never returned, the script a zombie).
    static func spawn(_ executable: String, _ arguments: [String], log: String) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, log + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw StartFailure(description: "cannot run \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(
            status: code, stdout: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: log + ".err", encoding: .utf8)) ?? "")
    }

    /// Whether any task of `job` is still pending or running.
    func isQueued(_ job: String) throws -> Bool {
        let r = try client("squeue", ["--noheader", "--array", "--jobs", job, "--format=%i %t"])
        return !r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// Waits (polling) until no task of `job` is queued; false after `timeout` seconds.
    func wait(for job: String, timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try !isQueued(job) { return true }
            usleep(100_000)
        }
        return false
    }

    /// The daemons of this cluster still alive (their command lines), from /proc: none after `stop()`.
    func leftoverProcesses() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let command = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            let daemon = ["munged", "slurmctld", "slurmd", "slurmstepd", "slurmscriptd"].contains {
                command.contains($0)
            }
            let ours = command.contains(directory) || daemon && Self.environment(of: pid).contains("SLURM_CONF=\(conf)")
            return daemon && ours ? "\(pid): \(command)" : nil
        }
    }

    private static func environment(of pid: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
    }
}
