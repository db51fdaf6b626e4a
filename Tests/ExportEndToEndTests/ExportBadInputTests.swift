import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Bad input to `hfr export`: one error line naming the file and the cause, the exit code of
/// SPEC.md, and nothing left behind (no output, no temporary file, input untouched).
@Suite(.serialized) struct ExportBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// Makes the input in the directory; returns its path.
        let prepare: @Sendable (TemporaryDirectory) throws -> String
        let options: [String]
        let exitCode: Int32
        let cause: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "codec the output container cannot hold",
            prepare: { dir in
                let p = dir.path("prores.mov")
                try ExportInputs.ffmpeg([
                    "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "0.5", "-c:v", "prores_ks", p,
                ])
                return p
            }, options: ["--conform", "15"], exitCode: 65, cause: "prores video cannot be copied into MP4; write .mov"),
        Case(
            name: "corrupt video packet mid-file",
            prepare: { dir in try corrupted(dir, stream: "v:0") }, options: ["--conform", "30"], exitCode: 65,
            cause: "corrupt"),
        Case(
            name: "corrupt audio packet mid-file",
            prepare: { dir in try corrupted(dir, stream: "a:0") }, options: ["--conform", "30"], exitCode: 65,
            cause: "corrupt"),
        Case(
            name: "corrupt audio packet, audio copied",
            prepare: { dir in try corrupted(dir, stream: "a:0") }, options: ["--fps", "30"], exitCode: 65,
            cause: "corrupt audio"),
        Case(
            name: "truncated recording",
            prepare: { dir in
                let source = try Data(contentsOf: URL(fileURLWithPath: try ExportInputs.sixSeconds.get()))
                let p = dir.path("cut.mp4")
                try source.prefix(source.count * 6 / 10).write(to: URL(fileURLWithPath: p))
                return p
            }, options: ["--conform", "30"], exitCode: 65, cause: "truncated"),
        Case(
            name: "truncated, no index", prepare: { try Fixtures.copy("truncated.mp4", to: $0) },
            options: ["--fps", "30"], exitCode: 65, cause: "not a media file"),
        Case(
            name: "raw stream without frame times",
            prepare: { dir in
                // Raw H.264 has neither tags nor timestamps: --timestamps or --input-fps must give them.
                let p = dir.path("raw.h264")
                try ExportInputs.ffmpeg([
                    "-i", try ExportInputs.sixSeconds.get(), "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb",
                    "-f", "h264", p,
                ])
                return p
            }, options: ["--conform", "30"], exitCode: 64,
            cause: "--timestamps FILE (rpicam-vid --save-pts, timestamp format v2) or --input-fps R"),
        Case(
            name: "ramp overlaps", prepare: recording, options: ["--ramp", "0-3@1,2-4@0.5,4-@1"], exitCode: 64,
            cause: "overlaps"),
        Case(
            name: "ramp runs backwards", prepare: recording, options: ["--ramp", "0-2@1,4-2@0.5"], exitCode: 64,
            cause: "runs backwards"),
        Case(name: "speed 0", prepare: recording, options: ["--speed", "0"], exitCode: 64, cause: "positive"),
        Case(name: "negative speed", prepare: recording, options: ["--speed", "-2"], exitCode: 64, cause: "positive"),
        Case(
            name: "ramp speed 0", prepare: recording, options: ["--ramp", "0-2@1,2-@0"], exitCode: 64,
            cause: "not positive"),
        Case(
            name: "existing output",
            prepare: { dir in
                try Data("keep me".utf8).write(to: URL(fileURLWithPath: dir.path("out.mp4")))
                return try recording(dir)
            }, options: ["--conform", "30"], exitCode: 74, cause: "already exists"),
    ]

    @Test(arguments: cases)
    func reportsOneLineAndLeavesNothing(c: Case) throws {
        let dir = try TemporaryDirectory()
        let input = try c.prepare(dir)
        let before = try dir.contents()
        let inputBytes = try Data(contentsOf: URL(fileURLWithPath: input))
        let r = try Tool.hfr(["export", input, dir.path("out.mp4")] + c.options)
        #expect(r.status == c.exitCode, "stderr: \(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
        #expect(errors.count == 1, "stderr: \(r.stderr)")
        #expect(errors.first?.contains(c.cause) == true, "stderr: \(r.stderr)")
        if c.exitCode != 64 {
            // Not a usage error: exactly one line, naming the file (beside progress lines, which a
            // slow machine prints for an export that runs past 2 s before it finds the fault).
            let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("export: ") }
            #expect(lines.count == 1, "stderr: \(r.stderr)")
            let named = c.exitCode == 74 ? "out.mp4" : URL(fileURLWithPath: input).lastPathComponent
            #expect(errors.first?.contains(named) == true, "stderr: \(r.stderr)")
        }
        #expect(try dir.contents() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == inputBytes)
    }

    static func recording(_ dir: TemporaryDirectory) throws -> String {
        let p = dir.path("in.mp4")
        try FileManager.default.copyItem(atPath: try ExportInputs.sixSeconds.get(), toPath: p)
        return p
    }

    /// The 6 s recording with the first 64 bytes of a packet of `stream` in its middle overwritten.
    static func corrupted(_ dir: TemporaryDirectory, stream: String) throws -> String {
        let p = try recording(dir)
        let r = try Tool.run(
            "ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pos", "-of", "csv=p=0", p])
        let positions = r.stdout.split(separator: "\n").compactMap { UInt64($0) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: p))
        try handle.seek(toOffset: positions[positions.count / 2])
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        return p
    }
}

/// Ctrl-C during an export: nothing is left behind, and the error says so.
@Suite struct ExportInterruptTests {
    /// A 10 s input re-encoded to `out.mp4` in a fresh directory, once it is writing, given
    /// `signals`: what it printed and exited with, whether it had started writing, whether a
    /// signal ended it. A re-encode takes seconds, so it cannot have finished before the signals
    /// come (a stream copy after a fixed half second could, and a test then checked nothing).
    func signalledWhileWriting(_ signals: [Int32]) throws -> (
        r: ToolResult, isWriting: Bool, wasSignalled: Bool, left: [String], output: String
    ) {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.mp4")
        let output = dir.path("out.mp4")
        try FileManager.default.copyItem(atPath: try ExportInputs.tenSeconds.get(), toPath: input)
        let export = try BackgroundProcess(
            Tool.hfrPath, ["export", input, output, "--conform", "30", "--reencode", "always"], directory: dir)
        let isWriting = Tool.waitForOutput(of: export.process.processIdentifier, in: dir.url.path, timeout: 60)
        for signal in signals { export.send(signal) }
        let r = export.wait()
        let left = try dir.contents().filter { !$0.hasPrefix("bg-") }
        return (r, isWriting, export.wasSignalled, left, output)
    }

    @Test func secondInterruptExitsAtOnceAndLeavesNothing() throws {
        let run = try signalledWhileWriting([SIGINT, SIGINT])
        #expect(run.isWriting, "the export never started writing; stderr: \(run.r.stderr)")
        #expect(run.r.status == 130 || run.r.status == 1, "stderr: \(run.r.stderr)")
        #expect(run.left == ["in.mp4"])
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptExits130AndLeavesNothing(signal: Int32) throws {
        let run = try signalledWhileWriting([signal])
        #expect(run.isWriting, "the export never started writing; stderr: \(run.r.stderr)")
        #expect(run.r.status == 130, "stderr: \(run.r.stderr)")
        #expect(run.r.stderr.contains("Error: \(run.output): interrupted; nothing written"), "\(run.r.stderr)")
        #expect(run.left == ["in.mp4"])
    }

    /// A crash while the muxer writes (SIGABRT, as an abort() in the muxer loop ends hfr; SIGKILL,
    /// which no handler sees) leaves nothing in the output directory: the output is an unnamed
    /// file until it is complete, and the kernel removes it with the process. (Before, the
    /// temporary `.out.mp4.PID.tmp` stayed.)
    @Test(arguments: [SIGABRT, SIGKILL])
    func aCrashWhileWritingLeavesNothing(signal: Int32) throws {
        let run = try signalledWhileWriting([signal])
        #expect(run.isWriting, "the export never started writing; stderr: \(run.r.stderr)")
        #expect(run.wasSignalled, "exit \(run.r.status): \(run.r.stderr)")
        #expect(run.left == ["in.mp4"])
        if signal == SIGABRT {
            // One line instead of the Swift runtime's pages of backtrace (which let hfr run on).
            #expect(
                run.r.stderr.hasSuffix(
                    "Error: hfr stopped on an internal fault (SIGABRT): a bug; please report it with the command line\n"
                ), "\(run.r.stderr)")
            #expect(!run.r.stderr.contains("Backtrac"), "\(run.r.stderr)")
        }
    }
}
