import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    /// Issue 30: a recording with drops the driver injected (vivid's percentage_of_dropped_buffers),
    /// exported with `--fill-drops repeat`: every empty slot of the file is made again, as many as
    /// the recording reported, at a constant rate, and `hfr probe` reports them.
    @Suite struct FillDrops {
        @Test func anExportFillsEveryDropTheRecordingReported() throws {
            try Guest.resetFaults()
            try Guest.set("percentage_of_dropped_buffers", 10)
            defer { try? Guest.resetFaults() }
            let dir = try TemporaryDirectory()
            let recording = dir.path("drops.mp4")
            let r = try Tool.hfr([
                "record", recording, "--device", Guest.camera, "--size", "320x180", "--fps", "60", "--duration", "1",
                "--audio", "none", "--late-frames", "queue", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let reported = try Tool.json(r.stdout)["framesDroppedByDevice"] as? Int ?? -1
            let times = try Guest.probe(recording).times
            let gaps = CameraRecord.gridGaps(times, rate: 60)
            // 10 % of 60 buffers: none dropped has a chance of 0.9^60 (0.2 %).
            try #require(gaps > 0, "no drops in \(times.count) frames")
            // The file's empty slots are the drops hfr counted from v4l2_buffer.sequence.
            let slots = CameraRecord.missingSlots(times, rate: 60, seconds: 1)
            #expect(reported == slots, "reported \(reported), empty slots in the file and after it \(slots)")

            let out = dir.path("filled.mp4")
            let e = try Tool.hfr(["export", recording, out, "--conform", "30", "--fill-drops", "repeat", "--json"])
            #expect(e.status == 0, "\(e.stderr)")
            let video = try Tool.json(e.stdout)["video"] as? [String: Any] ?? [:]
            let fill = video["filledDrops"] as? [String: Any] ?? [:]
            #expect(fill["count"] as? Int == gaps && fill["droppedFrames"] as? Int == gaps, "\(fill), gaps \(gaps)")
            #expect(video["framesOut"] as? Int == times.count + gaps)
            // A constant rate: every output frame 1/30 s after the one before.
            let filled = try Guest.probe(out).times
            #expect(filled.count == times.count + gaps)
            let steps = zip(filled, filled.dropFirst()).map { ($1 - $0) * 30 }
            #expect(steps.allSatisfy { abs($0 - 1) < 0.01 }, "uneven output: \(steps)")
            let probe = try Tool.hfr(["probe", out])
            #expect(probe.stdout.contains("\(gaps) frames synthesized (filled drops)"), "\(probe.stdout)")
            print("vivid 10 % dropped buffers, 1 s: \(times.count) frames, \(gaps) gaps (reported \(reported)) filled")
        }
    }
}
