import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    /// `--capture-api avdevice` (libavdevice's v4l2 input) against hfr's own capture on vivid's
    /// webcam: the same mode, the same slots, the same refusals.
    @Suite struct AvdeviceCapture {
        @Test func recordsTheSameModeAndFramesAsTheOwnCapture() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            var runs: [(frames: Int, drops: Int, report: [String: Any], stderr: String, file: FFprobeReading)] = []
            for api in ["own", "avdevice"] {
                let out = dir.path("\(api).mp4")
                let r = try Tool.hfr([
                    "record", out, "--device", Guest.camera, "--fps", "max", "--duration", "5", "--audio", "none",
                    "--late-frames", "queue", "--capture-api", api, "--json",
                ])
                #expect(r.status == 0, "\(api): \(r.stderr)")
                let report = try Tool.json(r.stdout)
                let capture = report["capture"] as? [String: Any]
                #expect(capture?["api"] as? String == api)
                // Own: sequence gaps, and the buffers vivid under emulation stamps with the previous
                // sequence number (left out; they stand for slots its late counter skipped).
                let drops =
                    api == "own"
                    ? (report["framesDroppedByDevice"] as? Int ?? -1) + (report["framesRepeatedByDevice"] as? Int ?? 0)
                    : report["framesMissingFromSource"] as? Int ?? -1
                let file = try Guest.probe(out)
                runs.append((file.times.count, drops, report, r.stderr, file))
            }
            let (own, av) = (runs[0], runs[1])
            #expect(av.report["capture"] as? [String: String] == ["api": "avdevice", "dropsFrom": "timestamp-gaps"])
            #expect(own.report["capture"] as? [String: String] == ["api": "own", "dropsFrom": "sequence-numbers"])
            // The same mode: size, the camera's pixel format, rate — in the reports and in the files.
            for key in ["width", "height", "frameRate", "sourcePixelFormat"] {
                #expect("\(own.report[key] ?? "-")" == "\(av.report[key] ?? "-")", "\(key)")
            }
            let modes = runs.map { run in ["width", "height", "r_frame_rate"].map { run.file.entry("video", $0) } }
            #expect(modes[0] == modes[1] && modes[0] == ["320", "180", "60/1"], "\(modes)")
            #expect(av.report["framesDroppedByDevice"] is NSNull, "libavdevice hides the sequence numbers")
            // Every slot of 5 s at the rate is a frame or a counted drop, on both backends (the slots
            // skipped after the last frame are revealed by the frame past the end, and counted).
            let rate = own.report["frameRate"] as? String == "60/1" ? 60 : 0
            #expect(rate == 60, "vivid's webcam tops out at 60 fps")
            for run in runs {
                let slots = run.frames + run.drops
                #expect(abs(slots - 300) <= 2, "\(run.frames) + \(run.drops)")
            }
            #expect(abs(own.frames - av.frames) <= max(own.drops, av.drops) + 2, "\(own.frames) vs \(av.frames)")
            // The avdevice drops are the empty slots of its file, and the summary says where they come from.
            #expect(DeviceTests.CameraRecord.missingSlots(av.file.times, rate: 60, seconds: 5) == av.drops)
            #expect(av.stderr.contains("camera dropped \(av.drops) (timestamp gaps, libavdevice's v4l2 input)"))
            #expect(own.stderr.contains("(sequence numbers)"))
            print(
                "vivid --fps max 5 s: own \(own.frames) frames + \(own.drops) drops",
                "(\(own.report["framesRepeatedByDevice"] ?? "?") repeated sequence numbers),",
                "avdevice \(av.frames) frames + \(av.drops) timestamp gaps")
        }

        @Test func aRateNoModeReachesIsRefusedTheSameWay() throws {
            let options = ["--fps", "61"]
            let dir = try TemporaryDirectory()
            var results: [ToolResult] = []
            for api in ["own", "avdevice"] {
                results.append(
                    try Tool.hfr(
                        ["record", dir.path("x.mp4"), "--device", Guest.camera, "--capture-api", api] + options))
            }
            #expect(results.allSatisfy { $0.status == 69 }, "\(results.map(\.stderr))")
            #expect(results[0].stderr == results[1].stderr)
            #expect(results[0].stderr.contains("no mode reaches 61 fps"), "\(results[0].stderr)")
            #expect(results[0].stderr.split(separator: "\n").count == 1, "\(results[0].stderr)")
            #expect(try dir.contents().isEmpty)
        }
    }
}
