import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `--codec` against the output's container and `--quality` against the codec's encoder, through
/// the binary (issue 42): a pair the container or encoder cannot take is refused with exit 64 in one
/// sentence before any work, the dry run and the real run alike, with nothing written; every other
/// pair is written in the codec asked for and decodes. Four 160x120 frames keep it cheap.
/// (`ExportCodecMatrixTests` checks all 378 command lines of `CodecContainerTable` in process.)
@Suite struct ExportContainerCodecTests {
    /// Four 160x120 frames at 120 fps (x264).
    static func input(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("in.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=120", "-frames:v", "4", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", path,
        ])
        return path
    }

    /// The error lines of `r`, without the usage synopsis and help pointer that follow a usage error.
    static func errors(_ r: ToolResult) -> [Substring] {
        r.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage: ") && !$0.hasPrefix("See 'hfr export --help'") }
    }

    static func export(_ input: String, _ output: String, codec: String?, quality: String?, dryRun: Bool) throws
        -> ToolResult
    {
        try Tool.hfr(
            ["export", input, output, "--conform", "30", "--reencode", "always"]
                + (codec.map { ["--codec", $0] } ?? []) + (quality.map { ["--quality", $0] } ?? [])
                + (dryRun ? ["--dry-run"] : []))
    }

    /// Each kind of clash for each codec that has it — a container that cannot hold the codec, a
    /// quality its encoder cannot take, a container hfr does not write, a malformed quality — in a
    /// dry run: exit 64, the table's sentence as the only error line, no progress, nothing written.
    /// Then four of them as real runs: the same answer.
    @Test func everyClashIsOneUsageSentenceBeforeAnyWork() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(in: dir)
        let cases: [(codec: String?, ext: String, quality: String?)] = [
            ("h264", "webm", nil), ("hevc", "webm", nil), ("av1", "mov", nil), ("vp9", "mov", nil),
            ("prores", "mp4", nil), ("ffv1", "mp4", nil), ("ffv1", "webm", nil), ("openh264", "webm", nil),
            ("h264", "mp4", "crf:52"), ("hevc", "mkv", "crf:63"), ("prores", "mov", "crf:23"),
            ("ffv1", "mkv", "bitrate:1M"), ("openh264", "mp4", "lossless"), ("vp9", "avi", nil),
            ("h264", "ts", nil), ("av1", "mkv", "crf:64"),
        ]
        var answers: [String: (Int32, [Substring])] = [:]
        for (codec, ext, quality) in cases {
            let output = dir.path("out.\(ext)")
            let expected = CodecContainerTable.refusal(codec: codec!, ext: ext, quality: quality, output: output)
            let r = try Self.export(input, output, codec: codec, quality: quality, dryRun: true)
            let errors = Self.errors(r)
            #expect(r.status == 64 && errors == ["Error: \(expected ?? "none")"], "\(codec!) .\(ext) \(quality ?? "")")
            #expect(r.stdout.isEmpty)
            answers["\(codec!).\(ext).\(quality ?? "")"] = (r.status, errors)
        }
        // Without --codec the clash is with the input's family (H.264: x264 stops at crf 51).
        let family = try Self.export(input, dir.path("out.mp4"), codec: nil, quality: "crf:52", dryRun: true)
        #expect(family.status == 64, "\(family.stderr)")
        #expect(family.stderr.hasPrefix("Error: --quality crf:52: H.264 (libx264) takes crf:0 to crf:51\n"))
        answers[".mp4.crf:52"] = (family.status, Self.errors(family))

        // The real runs answer as the dry runs did.
        for (codec, ext, quality) in [
            ("vp9", "mov", nil), ("hevc", "mkv", "crf:63"), ("h264", "ts", nil), (nil, "mp4", "crf:52"),
        ] {
            let r = try Self.export(input, dir.path("out.\(ext)"), codec: codec, quality: quality, dryRun: false)
            let errors = Self.errors(r)
            let dry = answers["\(codec ?? "").\(ext).\(quality ?? "")"]
            #expect(r.status == dry?.0 && errors == dry?.1, "\(r.stderr)")
        }
        #expect(try dir.contents() == ["in.mp4"])
    }

    /// Every container that holds a codec gets it (the encoder's default quality), and `.mkv` gets it
    /// at each quality of the table its encoder takes at the limits (crf 0, the last crf, a
    /// bitrate, lossless): exit 0, ffprobe finds the codec asked for and decodes all four frames
    /// without an error.
    @Test(arguments: CodecContainerTable.codecs)
    func everyAcceptedPairIsWrittenInTheCodecAskedFor(codec: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(in: dir)
        var runs: [(ext: String, quality: String?)] = CodecContainerTable.holders[codec]!.map { ($0, nil) }
        for quality in ["crf:0", "crf:51", "crf:63", "bitrate:1M", "lossless"]
        where CodecContainerTable.refusal(codec: codec, ext: "mkv", quality: quality, output: "") == nil {
            runs.append(("mkv", quality))
        }
        for (n, run) in runs.enumerated() {
            let output = dir.path("\(n).\(run.ext)")
            let r = try Self.export(input, output, codec: codec, quality: run.quality, dryRun: false)
            #expect(r.status == 0, "\(codec) .\(run.ext) \(run.quality ?? ""): \(r.stderr)")
            guard r.status == 0 else { continue }
            let probe = try Tool.run(
                "ffprobe",
                [
                    "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                    "stream=codec_name,nb_read_frames", "-of", "csv=p=0", output,
                ])
            #expect(
                probe.stdout == "\(CodecContainerTable.codecName(codec)),4\n" && probe.stderr.isEmpty,
                "\(codec) .\(run.ext) \(run.quality ?? ""): \(probe.stdout) \(probe.stderr)")
        }
    }
}
