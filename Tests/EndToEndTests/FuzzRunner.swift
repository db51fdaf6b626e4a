import Foundation
import HFRTestSupport

/// Runs a program with a time limit: killed (SIGKILL) after `timeout` seconds and reported as hung.
struct TimedRun {
    let status: Int32
    let signalled: Bool
    let hung: Bool
    let stdout: String
    let stderr: String

    static func run(_ executable: String, _ arguments: [String], timeout: Double = 30) throws -> TimedRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: readers) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let hung = done.wait(timeout: .now() + timeout) == .timedOut
        if hung {
            kill(process.processIdentifier, SIGKILL)
            done.wait()
        }
        readers.wait()
        return TimedRun(
            status: process.terminationStatus, signalled: !hung && process.terminationReason == .uncaughtSignal,
            hung: hung, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// stderr lines other than export's progress lines and notes.
    var messageLines: [String] {
        stderr.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init).filter {
            !$0.hasPrefix("export: ") && !$0.hasPrefix("Note: ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
    }
}

/// A failed assertion of one fuzz case: its kind (for the summary) and what happened.
struct FuzzFailure: Sendable {
    let kind: String
    let caseID: String
    let command: String
    let detail: String
}

/// Whether `path` decodes: the number of errors `ffmpeg -v error` prints decoding it fully.
enum DecodeErrors {
    static func count(_ path: String) throws -> Int {
        let r = try TimedRun.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "null", "-"])
        let lines = r.stderr.split(separator: "\n").count
        return r.hung || r.signalled ? Int.max : lines + (r.status == 0 ? 0 : 1)
    }
}
