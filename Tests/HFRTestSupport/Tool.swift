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
        process.standardInput = FileHandle.nullDevice
        try process.run()
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

    /// The `hfr` binary built next to the test bundle.
    public static var hfrPath: String {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("hfr").path
    }

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
