import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with posix_spawn, its stdout and stderr going to unlinked temporary
/// files (no pipe to drain while waiting, nothing left behind if the batch is killed) — or its
/// stderr to a log file that stays (`hfr batch --logs`), after a header.
public struct ChildProcess {
    public let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    /// Where the child's stderr starts in its file (after a log's header).
    private let stderrStart: off_t

    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Starts `executable` with `arguments` (argv[1...]) and the environment plus `extraEnvironment`;
    /// its stderr into the file `log.path` after `log.header` when given.
    public init(
        executable: String, arguments: [String], extraEnvironment: [String: String] = [:],
        log: (path: String, header: String)? = nil
    ) throws(ChildFailure) {
        stdoutFD = try Self.scratchFile()
        do throws(ChildFailure) {
            if let log {
                stderrFD = try Self.logFile(log.path, header: log.header)
            } else {
                stderrFD = try Self.scratchFile()
            }
        } catch {
            close(stdoutFD)
            throw error
        }
        stderrStart = off_t(log?.header.utf8.count ?? 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1)
        posix_spawn_file_actions_adddup2(&actions, stderrFD, 2)
        // The batch blocks nothing itself, but its own parent may have: give the child a clean
        // mask and default SIGINT/SIGTERM, so the export's own stop handling works.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in Signals.interruptNumbers { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var environment = ProcessInfo.processInfo.environment
        environment.merge(extraEnvironment) { $1 }
        // File names as their bytes (`PathBytes`): the child decodes them back to the same names.
        let argv = ([executable] + arguments).map { $0.withPathBytes { strdup($0) } } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = executable.withPathBytes { posix_spawn(&pid, $0, &actions, &attributes, argv, envp) }
        guard status == 0 else {
            close(stdoutFD)
            close(stderrFD)
            throw ChildFailure(message: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    /// Waits for the child to end; returns how, and what it printed.
    public func wait() -> (termination: Termination, stdout: String, stderr: String) {
        var status: Int32 = 0
        _ = retryingInterrupts { waitpid(pid, &status, 0) }
        // The wait(2) status word, decoded by hand: Swift does not import the W* macros.
        let signal = status & 0x7f
        let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        let out = Self.drain(stdoutFD)
        let err = Self.drain(stderrFD, from: stderrStart)
        return (termination, out, err)
    }

    private static func scratchFile() throws(ChildFailure) -> Int32 {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while true {
            let path = "\(directory)/hfr-batch.\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
            let fd = FileSystem.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0, errno == EEXIST { continue }
            guard fd >= 0 else {
                throw ChildFailure(
                    message: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
            }
            FileSystem.unlink(path)
            return fd
        }
    }

    /// A log file, replaced, starting with `header`.
    private static func logFile(_ path: String, header: String) throws(ChildFailure) -> Int32 {
        let fd = FileSystem.open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ChildFailure(message: "\(path): cannot create the log: \(String(cString: strerror(errno)))")
        }
        let bytes = Array(header.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            close(fd)
            throw ChildFailure(message: "\(path): cannot write the log: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    private static func drain(_ fd: Int32, from start: off_t = 0) -> String {
        defer { close(fd) }
        lseek(fd, start, SEEK_SET)
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = retryingInterrupts { read(fd, &buffer, buffer.count) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A child that could not be started.
public struct ChildFailure: Error, Sendable {
    public let message: String
}
