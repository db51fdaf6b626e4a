import Foundation

/// A program run to its end under GNU time, for its peak memory. Not `Process`, nor a plain
/// `posix_spawn` and `wait4`: a child's `ru_maxrss` starts from the memory of the process it was
/// forked from (the kernel carries the old address space's high-water mark across `exec`), here
/// the test runner's hundreds of megabytes; GNU time is small, and reports its own child's.
package struct ChildProcess {
    /// The exit code, or the signal number when signalled (as `Process.terminationStatus`).
    package let exitCode: Int32
    package let signalled: Bool
    /// Killed (SIGKILL) after the time limit.
    package let hung: Bool
    /// The program's peak resident set size in bytes (0 when killed).
    package let peakMemory: Int

    package static let time = "/usr/bin/time"

    /// Runs `executable` (a path) with `arguments`, stdin from /dev/null, stdout and stderr into
    /// the files at `stdout` and `stderr`; SIGKILL to it and GNU time after `timeout` seconds.
    package static func run(
        _ executable: String, _ arguments: [String], stdout: String, stderr: String, timeout: Double
    ) throws -> ChildProcess {
        let report = stderr + ".time"
        defer { unlink(report) }
        let pid = try spawn(
            time, ["-f", "%M", "-o", report, "--", executable] + arguments, stdout: stdout, stderr: stderr)
        // The watchdog kills only an unreaped group: the first wait leaves GNU time a zombie
        // (WNOWAIT), so its pid (the group's id) cannot be reused before `isDone` is set.
        let lock = NSLock()
        nonisolated(unsafe) var isDone = false
        nonisolated(unsafe) var hung = false
        let watchdog = DispatchWorkItem {
            lock.withLock {
                if !isDone {
                    hung = true
                    kill(-pid, SIGKILL)
                }
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        lock.withLock { isDone = true }
        watchdog.cancel()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        // GNU time exits with its child's code (128 + the signal that ended it) and reports
        // "Command terminated by signal N" above the peak in KiB; it ends by a signal itself only
        // when the watchdog kills it.
        let lines = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: "\n")
        let prefix = "Command terminated by signal "
        let reported = lines.first { $0.hasPrefix(prefix) }.flatMap { Int32($0.dropFirst(prefix.count)) }
        let signal = reported ?? (status & 0x7F != 0 ? status & 0x7F : nil)
        return ChildProcess(
            exitCode: signal ?? (status >> 8) & 0xFF, signalled: signal != nil, hung: lock.withLock { hung },
            peakMemory: (lines.last.flatMap { Int($0) } ?? 0) * 1024)
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34): the child gets no descriptor but
    /// 0–2, or a pipe of a test running beside it would stay open until it exits. Looked up at run
    /// time: the Glibc module does not declare it.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    /// Starts `executable` in a process group of its own (the watchdog kills the group).
    private static func spawn(_ executable: String, _ arguments: [String], stdout: String, stderr: String) throws
        -> pid_t
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let flags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, flags, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, flags, 0o600)
        _ = addCloseFrom?(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard error == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO, userInfo: ["executable": executable])
        }
        return pid
    }
}
