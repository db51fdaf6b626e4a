import EndToEndSupport
import Foundation
import HFRTestSupport

/// Runs a program with a time limit: killed (SIGKILL) after `timeout` seconds and reported as hung.
struct TimedRun {
    let status: Int32
    let signalled: Bool
    let hung: Bool
    let stdout: String
    let stderr: String
    /// The program's peak resident set size in bytes.
    let peakMemory: Int

    static func run(_ executable: String, _ arguments: [String], timeout: Double = 30) throws -> TimedRun {
        // Output goes to files, not pipes: files need no reader threads.
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("hfr-fuzz-\(UUID().uuidString)")
        let outURL = logs.appendingPathExtension("out")
        let errURL = logs.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let child = try ChildProcess.run(
            executable, arguments, stdout: outURL.path, stderr: errURL.path, timeout: timeout)
        return TimedRun(
            status: child.exitCode, signalled: !child.hung && child.signalled, hung: child.hung,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            peakMemory: child.peakMemory)
    }

    /// stderr lines other than hfr's own progress lines, notes and one-line summary.
    var messageLines: [String] {
        stderr.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init).filter { line in
            !["export: ", "Note: ", "Exported "].contains { line.hasPrefix($0) }
                && !line.trimmingCharacters(in: .whitespaces).isEmpty
        }
    }
}

extension TimedRun {
    /// The cause and the first frame in hfr's sources of a crash report on stderr.
    var crashSummary: String {
        let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let cause = lines.first { $0.contains("runtime failure") || $0.contains("Fatal error") } ?? "no cause printed"
        let frame = lines.first { $0.contains("/Sources/") }.map { $0.replacingOccurrences(of: "  ", with: " ") }
        return "\(cause) at \(frame ?? "?")"
    }
}

/// A failed assertion of one fuzz case: its kind (for the summary) and what happened.
struct FuzzFailure: Sendable {
    let kind: String
    let caseID: String
    let command: String
    let detail: String
}

/// A file read by ffprobe in one run (`FFprobeReading`), every frame of every stream decoded: the
/// error lines that printed, the frames of its first video stream that decoded, and that stream's
/// packets.
struct Decoding {
    let errors: Int
    let videoFrames: Int
    let videoPackets: [(pts: Double, dts: Double?, duration: Double?)]

    init(_ path: String) throws {
        let r = try TimedRun.run("/usr/bin/ffprobe", FFprobeReading.arguments(path, decoding: true))
        let lines = r.stderr.split(separator: "\n").count
        errors = r.hung || r.signalled ? Int.max : lines + (r.status == 0 ? 0 : 1)
        let reading = FFprobeReading(json: r.stdout)
        videoFrames = max(0, reading.decodedFrames)
        videoPackets = reading.videoPackets
    }
}
