import Foundation
import HFRMedia
import HFRPipeline
import Testing

@testable import HFRCapture

/// The record pipeline on a scripted camera: a recording that ends before its first frame leaves
/// no file at all (neither the output nor the fragmented partial). (Recordings that end after
/// frames keep them: the guest's FaultTests, on vivid. The scripted 16x8 picture opens the encoder
/// and the writer, but OpenH264 refuses to encode it: a failure on the first frame.)
@Suite struct RecordBeforeFirstFrameTests {
    /// A pipeline recording the scripted 16x8 YU12 camera at 60 fps into `output`.
    func pipeline(_ driver: ScriptedV4L2Driver, output: String) throws -> RecordPipeline {
        let device = try V4L2Device(path: "/dev/scripted", driver: driver)
        let camera = try V4L2Capture(
            device: device, choice: ModeSelector.Choice(mode: V4L2CaptureTests.yu12, rate: Rational(60)))
        let settings = RecordSettings(
            capture: CaptureRequest(
                source: .device(path: "/dev/scripted"), width: 16, height: 8, frameRate: Rational(60),
                pixelFormat: "YU12", includesSourceAudio: false),
            output: output, temporalLayers: 2, bitrate: 200_000, keyframeInterval: 60, encoderThreads: 1,
            duration: nil, frameLimit: nil, lateFrames: .queue, queueCapacity: 16, showsStatus: false)
        return RecordPipeline(settings: settings, session: .wrapping(camera))
    }

    /// A fresh directory for one recording; its path.
    func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hfr-pipeline-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    func contents(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func unpluggedBeforeTheFirstFrameLeavesNoFile() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipeline = try pipeline(ScriptedV4L2Driver(script: [.fail(.noSuchDevice)]), output: dir + "/disc.mp4")
        guard let (reason, cause) = Self.nothingRecorded(pipeline) else { return }
        #expect(reason == .sourceError)
        #expect((cause as? V4L2Failure)?.isDisconnect == true)
        #expect(try contents(dir) == [])
    }

    @Test func stoppedBeforeTheFirstFrameLeavesNoFile() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipeline = try pipeline(ScriptedV4L2Driver(script: [.frame(sequence: 0)]), output: dir + "/stop.mp4")
        pipeline.stop()
        guard let (reason, cause) = Self.nothingRecorded(pipeline) else { return }
        #expect(reason == .signal)
        #expect(cause == nil)
        #expect(try contents(dir) == [])
    }

    @Test func anEncoderFailingOnTheFirstFrameLeavesNoFile() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipeline = try pipeline(ScriptedV4L2Driver(script: [.frame(sequence: 0)]), output: dir + "/enc.mp4")
        var failure: RecordFailure?
        do {
            _ = try pipeline.run()
        } catch {
            failure = error
        }
        guard case .encoder? = failure else {
            Issue.record("expected an encoder failure, got \(String(describing: failure))")
            return
        }
        #expect(try contents(dir) == [])
    }

    /// The reason and cause of the `nothingRecorded` failure `pipeline.run()` ends with; records an
    /// issue and returns nil when it ends otherwise.
    static func nothingRecorded(_ pipeline: RecordPipeline) -> (StopReason, (any Error)?)? {
        do {
            _ = try pipeline.run()
        } catch {
            if case .nothingRecorded(let reason, let cause) = error { return (reason, cause) }
            Issue.record("expected nothingRecorded, got \(error)")
            return nil
        }
        Issue.record("expected nothingRecorded, the recording succeeded")
        return nil
    }
}
