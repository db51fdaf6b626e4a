import Foundation

/// What a finished process printed and how it exited.
public struct ToolResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs external programs (ffprobe, ffmpeg, the built hfr) for tests.
public enum Tool {
    /// Runs `executable` (a path, or a name found on PATH) and waits for it.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> ToolResult {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = stdin.map { _ in Pipe() }
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        if let input, let stdin {
            // Written whole, then closed: the child sees the text, then the end of its input.
            try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so neither fills up and blocks the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ToolResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The `hfr` the tests run: `HFR_BINARY` when set (scripts/test sets the static release build
    /// that scripts/install ships, which the device tests in the emulated guest also need for real
    /// time), else the one built next to the test bundle.
    public static var hfrPath: String {
        if let path = ProcessInfo.processInfo.environment["HFR_BINARY"], !path.isEmpty { return path }
        return builtHfrPath
    }

    /// The directory of the running test bundle: the build's products (`hfr`, `hfrPackageTests.xctest`).
    public static var buildDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The `hfr` built with the tests (`swift build --build-tests`: a debug build, linked to the
    /// toolchain's Swift runtime), whatever `HFR_BINARY` says.
    public static var builtHfrPath: String { buildDirectory.appendingPathComponent("hfr").path }

    /// Runs the built `hfr` with `arguments`.
    @discardableResult
    public static func hfr(_ arguments: [String]) throws -> ToolResult {
        try run(hfrPath, arguments)
    }

    /// Parses `text` as a JSON object.
    public static func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return object
    }
}

/// A program running in the background, its output going to files.
public final class BackgroundProcess: @unchecked Sendable {
    public let process = Process()
    let stdoutURL: URL
    let stderrURL: URL

    /// Starts `executable` with `arguments`; output is collected in `directory`.
    public init(_ executable: String, _ arguments: [String], directory: TemporaryDirectory) throws {
        stdoutURL = directory.url.appendingPathComponent("bg-\(UUID().uuidString).out")
        stderrURL = directory.url.appendingPathComponent("bg-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until the process has printed something (on either stream); false after `timeout` seconds.
    public func waitForOutput(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for url in [stdoutURL, stderrURL] {
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
                if size > 0 { return true }
            }
            usleep(50_000)
        }
        return false
    }

    /// What the process has printed on stderr so far.
    public var stderrSoFar: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for the exit and returns what it printed; removes the output files.
    public func wait() -> ToolResult {
        process.waitUntilExit()
        let out = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
        return ToolResult(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// Whether the process was ended by a signal (rather than exiting).
    public var wasSignalled: Bool { process.terminationReason == .uncaughtSignal }
}

extension Tool {
    /// Waits until process `pid` writes an output in `directory` (polling, up to `timeout` seconds):
    /// hfr writes outputs as unnamed files there (O_TMPFILE), which its descriptors show as
    /// `DIRECTORY/#INODE (deleted)`; where the file system has none, as `.NAME.PID.tmp`.
    public static func waitForOutput(of pid: Int32, in directory: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let fds = "/proc/\(pid)/fd"
        while Date() < deadline {
            let links = ((try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []).compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)")
            }
            if links.contains(where: { $0.hasPrefix(directory + "/#") && $0.hasSuffix("(deleted)") }) { return true }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if names.contains(where: { $0.hasPrefix(".") && $0.hasSuffix(".\(pid).tmp") }) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits until `path` exists (polling), up to `timeout` seconds; returns whether it appeared.
    public static func waitForFile(_ path: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: path) { return true }
            usleep(10_000)
        }
        return false
    }
}

extension BackgroundProcess {
    /// A triggered recording's one trigger: sends SIGUSR1 (`--trigger signal`), waits for the
    /// exit, and returns what it printed, its `--json` report and the report's clips.
    public func signalTriggerAndWait() throws -> (result: ToolResult, report: [String: Any], clips: [[String: Any]]) {
        send(SIGUSR1)
        let result = wait()
        let report = try Tool.json(result.stdout)
        return (result, report, report["clips"] as? [[String: Any]] ?? [])
    }
}
