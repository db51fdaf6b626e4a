import HFRTestSupport
import Testing

@testable import HFRCommands

/// Every `--codec` into every output extension at every `--quality` of `CodecContainerTable`, parsed
/// in process as `hfr export` parses it (378 command lines, no file read): each clash of codec and
/// container or of codec and quality is a usage error (exit 64) in the table's one sentence before
/// any work; every other pair passes. (`ExportContainerCodecTests` runs them through the binary.)
@Suite struct ExportCodecMatrixTests {
    @Test func everyCodecContainerAndQualityIsAcceptedOrRefusedInOneSentence() {
        var problems: [String] = []
        var (accepted, refused) = (0, 0)
        for codec in CodecContainerTable.codecs {
            for ext in CodecContainerTable.extensions {
                for quality in CodecContainerTable.qualities {
                    let output = "/tmp/hfr-codec-matrix/o.\(ext)"
                    let arguments =
                        ["in.mp4", output, "--fps", "60", "--reencode", "always", "--codec", codec]
                        + (quality.map { ["--quality", $0] } ?? [])
                    let expected = CodecContainerTable.refusal(codec: codec, ext: ext, quality: quality, output: output)
                    let line = arguments.joined(separator: " ")
                    do {
                        _ = try ExportCommand(ParsedArguments(arguments, for: ExportCommand.self))
                        accepted += 1
                        if let expected { problems.append("\(line): accepted, expected '\(expected)'") }
                    } catch {
                        refused += 1
                        if error.message != expected || error.exitCode != .usage {
                            problems.append("\(line): exit \(error.exitCode.rawValue) '\(error.message)'")
                        }
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(12).joined(separator: "\n"))")
        // 378 lines: the table's 94 pairs written (by codec: 18 H.264, 18 HEVC, 24 AV1, 24 VP9,
        // 2 ProRes, 2 FFV1, 6 OpenH264), the rest refused.
        #expect(accepted == 94 && refused == 284, "\(accepted) accepted, \(refused) refused")
    }
}
