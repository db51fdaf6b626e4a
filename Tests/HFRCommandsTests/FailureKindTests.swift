import Foundation
import HFRMedia
import Testing

@testable import HFRCommands
@testable import HFRExport

/// Issue 42, item 4: a failure is classified where it happens (its kind) and turned into an exit
/// code once, at the edge; layers in between pass it on as it is.
@Suite struct FailureKindTests {
    /// An FFmpeg failure's kind, from the stage hfr marked it with and its errno.
    @Test(arguments: [
        (AVFailure.Stage.openingInput, ENOENT, FailureKind.inputAccess),
        (.openingInput, EINVAL, .inputData),
        // What libav meets while parsing (ENOMEM for an absurd table size) is the data's fault.
        (.readingInput, ENOMEM, .inputData),
        (.decoding, EINVAL, .inputData),
        (.openingEncoder, EINVAL, .options),
        (.openingEncoder, ENOMEM, .system),
        (.encoding, EINVAL, .encoder),
        (.writingOutput, ENOSPC, .output),
        (.writingOutput, EROFS, .output),
        // The muxer refused what the input gave it (a timestamp it cannot hold).
        (.writingOutput, EINVAL, .inputData),
        (.other, EINVAL, .system),
    ])
    func anFFmpegFailureIsClassifiedByItsStage(stage: AVFailure.Stage, errno: Int32, kind: FailureKind) {
        #expect(AVFailure(errno: Errno(rawValue: errno), operation: "call", stage: stage).kind == kind)
    }

    /// Each kind has one exit code (SPEC.md), decided in one function.
    @Test func eachKindHasTheExitCodeOfSpec() {
        let codes = FailureKind.allCases.map { HFRError.exitCode(for: $0).rawValue }
        #expect(codes == [65, 74, 64, 1, 74, 69, 1])
        #expect(FailureKind.allCases == [.inputData, .inputAccess, .options, .encoder, .output, .unavailable, .system])
    }

    /// OpenH264 refusing its settings when it opens is an option error, not the input's.
    @Test func openH264RefusingItsSettingsIsAnOptionError() {
        let settings = H264Encoder.Settings(
            width: 160, height: 120, frameRate: Rational(30), temporalLayers: 5, bitrate: 500_000,
            keyframeInterval: 32)
        #expect(throws: H264Encoder.Failure.self) { _ = try H264Encoder(settings) }
        do {
            _ = try H264Encoder(settings)
        } catch {
            #expect(error.kind == .options)
        }
    }

    /// A failure named where it happened is not named again by the layers it passes through: the
    /// resampler's stage stays the resampler's, its kind the one it was given.
    @Test func aFailureNamedWhereItHappenedPassesThroughUnchanged() {
        let swr = AVFailure(errno: Errno(rawValue: EINVAL), operation: "swr_init", stage: .encoding)
        let inner = ExportFailure.of("resampling audio from 7 to 8000 Hz for aac", swr, as: .system)
        let outer = ExportFailure.of("audio encoder aac", inner)
        guard case .failed(let failure) = outer else {
            Issue.record("\(outer)")
            return
        }
        #expect(failure.description == "resampling audio from 7 to 8000 Hz for aac: swr_init: Invalid argument")
        #expect(failure.kind == .system)
        guard case .badInput(let cause) = ExportFailure.of("video encoder", ExportFailure.badInput("corrupt")) else {
            Issue.record("a bad input became another failure")
            return
        }
        #expect(cause == "corrupt")
        // Without a kind from the stage, the cause's own: an encoder's refusal at open is an option.
        let open = AVFailure(
            errno: Errno(rawValue: EINVAL), operation: "avcodec_open2(libx265)", stage: .openingEncoder)
        guard case .failed(let refused) = ExportFailure.of("opening the video encoder libx265 (crf:63)", open) else {
            Issue.record("not a stage failure")
            return
        }
        #expect(refused.kind == .options)
    }

    /// The edge says it once: the file it concerns, the stage, the cause, the kind's exit code; an
    /// option error shows the command's usage, a failure of the output's disk names the output.
    @Test func theEdgeNamesTheFileTheStageAndTheExitCodeOfTheKind() {
        let open = AVFailure(
            errno: Errno(rawValue: EINVAL), operation: "avcodec_open2(libx265)", stage: .openingEncoder)
        let refused = HFRError.failed(
            StageFailure("opening the video encoder libx265 (crf:63)", open), input: "in.mp4", output: "out.mp4",
            command: ExportCommand.self)
        #expect(refused.exitCode == .usage)
        #expect(
            refused.message
                == "in.mp4: opening the video encoder libx265 (crf:63): avcodec_open2(libx265): Invalid argument")
        #expect(refused.usageOf == ExportCommand.self)
        let full = AVFailure(errno: Errno(rawValue: ENOSPC), operation: "write", stage: .writingOutput)
        let disk = HFRError.failed(StageFailure("audio encoder aac", full), input: "in.mp4", output: "out.mp4")
        #expect(disk.exitCode == .ioError)
        #expect(disk.message.hasPrefix("out.mp4: audio encoder aac: write: "))
        #expect(disk.usageOf == nil)
        let encoder = HFRError.failed(
            StageFailure(
                "video encoder libx264",
                AVFailure(errno: Errno(rawValue: EINVAL), operation: "avcodec_send_frame", stage: .encoding)),
            input: "in.mp4", output: "out.mp4", command: ExportCommand.self)
        #expect(encoder.exitCode == .failure)
        #expect(encoder.message == "in.mp4: video encoder libx264: avcodec_send_frame: Invalid argument")
        #expect(encoder.usageOf == nil)
    }
}
