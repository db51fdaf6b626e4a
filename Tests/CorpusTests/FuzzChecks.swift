import Foundation
import HFRTestSupport

/// Runs one fuzz case (probe and the exports on the mutated input) and checks every run:
/// no signal, no hang, a documented exit code with one `Error:` line, nothing left behind, the
/// inputs unchanged, at most 1 GB of memory, and on success an output that decodes and is timed
/// as `--json` says.
struct FuzzCaseRun {
    static let memoryLimit = 1 << 30

    let c: FuzzCorpus.Case
    let bytes: [UInt8]
    let timestampBytes: [UInt8]?
    let id: String
    let dir: TemporaryDirectory
    let input: String
    /// The raw stream's `--timestamps` file.
    let timestamps: String?
    var failures: [FuzzFailure] = []
    var inputDecoding: Decoding?
    /// Each run's command and exit status, for `HFR_FUZZ_VERBOSE`.
    var outcomes: [String] = []
    /// The largest peak resident set of the case's hfr runs, in bytes, and its command.
    var peakMemory = (bytes: 0, command: "")

    init(_ c: FuzzCorpus.Case) throws {
        self.c = c
        let (bytes, timestampBytes, detail) = FuzzCorpus.mutated(c)
        self.bytes = bytes
        self.timestampBytes = timestampBytes
        id = "HFR_FUZZ_SEED=\(FuzzCorpus.baseSeed) HFR_FUZZ_ONLY=\(c.index) [\(c.seed.name) \(c.category): \(detail)]"
        dir = try TemporaryDirectory()
        input = dir.path("case\(c.index)-\(c.seed.name)")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        if let timestampBytes {
            let path = dir.path("case\(c.index)-pts.txt")
            try Data(timestampBytes).write(to: URL(fileURLWithPath: path))
            timestamps = path
        } else {
            timestamps = nil
        }
    }

    mutating func runAll() throws {
        let timing = timestamps.map { ["--timestamps", $0] } ?? []
        try check("probe", ["probe", input] + timing, output: nil)
        let ext = c.seed.matroska ? "mkv" : (c.seed.name.hasSuffix(".mov") ? "mov" : "mp4")
        for options in c.seed.exports {
            let output = dir.path("out\(c.index).\(ext)")
            try check(
                "export \(options.joined(separator: " "))", ["export", input, output, "--json"] + options + timing,
                output: output)
            try? FileManager.default.removeItem(atPath: output)
        }
    }

    mutating func fail(_ kind: String, _ command: String, _ detail: String) {
        failures.append(FuzzFailure(kind: kind, caseID: id, command: command, detail: detail))
    }

    mutating func check(_ command: String, _ arguments: [String], output: String?) throws {
        let before = try dir.contents()
        let started = Date()
        let r = try TimedRun.run(Tool.hfrPath, arguments)
        let seconds = String(format: "%.2f s", Date().timeIntervalSince(started))
        let tail = String(r.stderr.suffix(300))
        outcomes.append("\(command) → \(r.hung ? "hang" : "\(r.status)") (\(seconds)) \(r.messageLines.first ?? "")")
        if r.peakMemory > peakMemory.bytes { peakMemory = (r.peakMemory, command) }
        if r.peakMemory >= Self.memoryLimit {
            fail("memory", command, "peak resident set \(r.peakMemory >> 20) MiB (exit \(r.status))")
        }
        if r.hung { return fail("hang", command, "killed after 30 s; stderr: \(tail)") }
        if r.signalled { return fail("signal", command, "signal \(r.status): \(r.crashSummary)") }
        if try Data(contentsOf: URL(fileURLWithPath: input)) != Data(bytes) { fail("input changed", command, "") }
        if let timestamps, let timestampBytes,
            try Data(contentsOf: URL(fileURLWithPath: timestamps)) != Data(timestampBytes)
        {
            fail("input changed", command, "the timestamps file")
        }
        let after = try dir.contents()
        let outputName = output.map { URL(fileURLWithPath: $0).lastPathComponent }
        let expected = r.status == 0 && outputName != nil ? (before + [outputName!]).sorted() : before
        if after != expected { fail("leftover", command, "exit \(r.status); directory: \(after)") }
        if r.status == 0 {
            if !r.messageLines.isEmpty { fail("chatter", command, "stderr on success: \(tail)") }
            if let output, after.contains(outputName!) { try checkOutput(command, output, r.stdout) }
        } else {
            checkRefusal(command, r, output: output)
        }
    }

    mutating func checkRefusal(_ command: String, _ r: TimedRun, output: String?) {
        let lines = r.messageLines
        let line = lines.first ?? ""
        // The input, or the timestamps file when that is what is wrong.
        let names = ([input] + (timestamps.map { [$0] } ?? [])).map { URL(fileURLWithPath: $0).lastPathComponent }
        if lines.count != 1 || !line.hasPrefix("Error:") {
            fail("error line", command, "exit \(r.status), \(lines.count) message lines: \(lines.prefix(4))")
        }
        let allowed: Set<Int32> = output == nil ? [65] : [64, 65, 74]
        if !allowed.contains(r.status) {
            fail("exit code", command, "exit \(r.status): \(line)")
        } else if r.status == 74, let output, !line.contains(URL(fileURLWithPath: output).lastPathComponent) {
            fail("exit code", command, "exit 74 (I/O) for bad input data: \(line)")
        } else if r.status != 74, !names.contains(where: { line.contains($0) }) {
            fail("error line", command, "does not name the input: \(line)")
        }
    }
}
