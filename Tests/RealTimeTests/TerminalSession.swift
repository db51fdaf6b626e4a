import Foundation
import HFRTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A command running in a detached tmux session on its own server (a real terminal: a pty of
/// `width` columns), its screen read with `capture-pane` as a user would see it, and everything it
/// wrote to the terminal kept byte for byte (`transcript`): every redraw of a live line is there,
/// however fast or slow the machine, where screens taken now and then see only some.
final class TerminalSession {
    let socket = "hfr-test-\(UUID().uuidString.prefix(8))"
    /// The pane's output, as tmux's `pipe-pane` copies it.
    let transcriptPath: String
    /// What the shell prints after the command: `exit=CODE`.
    static let exitMarker = "exit="

    /// Starts `arguments` (program first) in `directory`, once the transcript is being kept (the
    /// shell waits on a tmux channel that is signalled after `pipe-pane`, so no byte is missed).
    init(_ arguments: [String], in directory: String, width: Int = 200, height: Int = 50) throws {
        transcriptPath = NSTemporaryDirectory() + "/\(socket).out"
        let command = arguments.map(Self.quoted).joined(separator: " ")
        let start = "tmux -L \(socket) wait-for started"
        let script =
            "\(start) && cd \(Self.quoted(directory)) && \(command); echo \(Self.exitMarker)$?; sleep 120"
        let tmux = [
            "tmux", "-L", socket, "new-session", "-d", "-s", "test", "-x", String(width), "-y", String(height), script,
        ]
        guard Self.spawnDetached(tmux.map(Self.quoted).joined(separator: " ")) == 0 else {
            throw CocoaError(.executableLoad)
        }
        let pipe = try Tool.run(
            "tmux", ["-L", socket, "pipe-pane", "-O", "-t", "test", "cat > \(Self.quoted(transcriptPath))"])
        // A signal that comes before the shell waits is kept for it (tmux marks the channel woken).
        let go = try Tool.run("tmux", ["-L", socket, "wait-for", "-S", "started"])
        guard pipe.status == 0, go.status == 0 else { throw CocoaError(.executableLoad) }
    }

    /// Runs `command` with bash and waits for it, as from a fresh login: the tmux server it starts
    /// inherits the caller's signal mask and descriptors and keeps them, so it gets no signal
    /// blocked (the test runner blocks most; a blocked SIGHUP would outlive `kill-server`) and no
    /// descriptor beyond 0-2 (a pipe of another test's `Tool.run` would never reach its end).
    static func spawnDetached(_ command: String) -> Int32 {
        let closeAll = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; "#
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["/bin/bash", "-c", closeAll + "exec " + command]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }

    deinit {
        _ = try? Tool.run("tmux", ["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: transcriptPath)
    }

    /// The screen's lines now, trailing blank lines left out.
    func screen() throws -> [String] {
        let text = try Tool.run("tmux", ["-L", socket, "capture-pane", "-p"]).stdout
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The command's exit code once it has ended, else nil.
    func exitCode(in lines: [String]) -> Int32? {
        lines.last { $0.hasPrefix(Self.exitMarker) }.flatMap { Int32($0.dropFirst(Self.exitMarker.count)) }
    }

    /// Screens taken every `interval` seconds until the command ends (the last one shows its end);
    /// gives up after `timeout` seconds.
    func samples(every interval: Double = 1, timeout: Double = 120) throws -> [[String]] {
        var screens: [[String]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = try screen()
            screens.append(lines)
            if exitCode(in: lines) != nil { break }
            usleep(useconds_t(interval * 1_000_000))
        }
        return screens
    }

    /// Waits (polling) until a line of the screen satisfies `predicate`; the screen then, or nil.
    func waitFor(timeout: Double = 30, _ predicate: (String) -> Bool) throws -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = try screen()
            if lines.contains(where: predicate) { return lines }
            usleep(50_000)
        }
        return nil
    }

    /// Everything the command and the shell wrote to the terminal, once the shell has printed the
    /// exit code (call it after `samples()`, which waits for that); nil if that does not come.
    func transcript(timeout: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: transcriptPath) {
                let text = String(decoding: data, as: UTF8.self)
                if text.contains("\n" + Self.exitMarker) { return text }
            }
            usleep(50_000)
        }
        return nil
    }

    /// Waits (polling the transcript every 2 ms: sooner than the screen can be read) until the
    /// command has written `text`; whether it did within `timeout` seconds.
    func waitForOutput(_ text: String, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: transcriptPath),
                String(decoding: data, as: UTF8.self).contains(text)
            {
                return true
            }
            usleep(2_000)
        }
        return false
    }

    /// What was drawn in place in `transcript`: each text written as `\r TEXT ESC[K` (a live line's
    /// redraw), with the number of the terminal line it was drawn on (newlines before it). Erasures
    /// (`\r ESC[K` alone) are left out.
    static func redraws(in transcript: String) -> [(line: Int, text: String)] {
        let erase = "\u{1B}[K"
        // The terminal turns each "\n" into "\r\n".
        let lines = transcript.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        return lines.enumerated().flatMap { number, line in
            line.components(separatedBy: "\r").dropFirst().compactMap { part in
                guard part.hasSuffix(erase), part.count > erase.count else { return nil }
                return (number, String(part.dropLast(erase.count)))
            }
        }
    }

    /// Types keys into the terminal (`C-c`: Ctrl-C).
    func send(_ keys: String) throws {
        try Tool.run("tmux", ["-L", socket, "send-keys", keys])
    }

    static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
