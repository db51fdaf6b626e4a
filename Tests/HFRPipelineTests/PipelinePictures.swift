import Foundation
import HFRCapture
import HFRMedia

@testable import HFRPipeline

/// Pictures and encoded packets made in this process for the trigger stages' tests: 160x120 grey
/// frames (a shade per frame), and the record pipeline's own video encoder (OpenH264) on them.
enum PipelinePictures {
    /// A 160x120 grey frame `shade` bright, at `pts`.
    static func frame(pts: Int64, shade: UInt8 = 128) throws -> Frame {
        let frame = try Frame.picture(width: 160, height: 120, format: .yuv420p)
        for (index, rows) in [(0, 120), (1, 60), (2, 60)] {
            guard let plane = frame.plane(index) else { continue }
            plane.bytes.update(repeating: index == 0 ? shade : 128, count: plane.bytesPerLine * rows)
        }
        frame.pts = pts
        return frame
    }

    /// A recording of the generated source at 160x120 and `rate` into `output`: a key frame a second.
    static func settings(output: String, rate: Rational = Rational(30)) -> RecordSettings {
        RecordSettings(
            capture: CaptureRequest(
                source: .testPattern, width: 160, height: 120, frameRate: rate, includesSourceAudio: false),
            output: output, temporalLayers: 2, bitrate: 200_000, keyframeInterval: Int(rate.rounded()),
            encoderThreads: 1, duration: nil, frameLimit: nil, lateFrames: .queue, queueCapacity: 16,
            showsStatus: false)
    }

    /// Frames `numbers` (at `rate`, frame n at n / rate) through the video encoder: the packets the
    /// mux stage gets, and the clips' format.
    static func encode(_ numbers: [Int], settings: RecordSettings) throws -> (
        items: [MuxItem], format: ClipStage.Format
    ) {
        let rate = settings.capture.frameRate
        let stage = try VideoEncodeStage(settings: settings, inputTimeBase: rate.reciprocal, stats: RecordStats())
        let frames = BoundedQueue<Frame>(capacity: numbers.count + 1)
        for n in numbers { _ = frames.push(try frame(pts: Int64(n), shade: UInt8(16 + n % 200))) }
        frames.finish()
        let mux = BoundedQueue<MuxItem>(capacity: numbers.count + 16)
        if let failure = stage.run(from: frames, to: mux) { throw failure }
        var items: [MuxItem] = []
        while let item = mux.tryPop() { items.append(item) }
        let format = ClipStage.Format(
            width: 160, height: 120, parameterSets: try stage.parameterSets(), videoTimeBase: stage.outputTimeBase,
            audio: nil)
        return (items, format)
    }

    /// A new empty directory; its path.
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hfr-clips-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// The names in `directory`, sorted.
    static func contents(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }
}
