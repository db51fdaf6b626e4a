import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    /// vivid's fault-injection controls, pressed by v4l2-ctl while hfr records.
    @Suite struct Faults {
        /// Starts a long recording from `device`, waits `seconds` of capture, presses `control`, and
        /// returns hfr's result with the output path.
        func recordAndPress(
            _ control: String, after seconds: Double, in dir: TemporaryDirectory, device: String = Guest.camera
        ) throws -> (ToolResult, String) {
            let out = dir.path("fault.mp4")
            let hfr = try BackgroundProcess(
                Tool.hfrPath,
                ["record", out, "--device", device, "--fps", "60", "--duration", "60", "--audio", "none"],
                directory: dir)
            #expect(Tool.waitForFile(RecordPartial.path(out), timeout: 20))
            usleep(UInt32(seconds * 1_000_000))
            try Guest.set(control, 1, on: device)
            let result = hfr.wait()
            return (result, out)
        }

        /// On the single-planar webcam and on the multi-planar one alike.
        @Test(arguments: [Guest.camera, Guest.multiplanar])
        func unplugStopsCleanlyAndKeepsEveryFrame(device: String) throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let (r, out) = try recordAndPress("disconnect", after: 2, in: dir, device: device)
            #expect(r.status == 69, "\(r.stderr)")
            #expect(r.stderr.contains("\(device): lost after"), "\(r.stderr)")
            #expect(r.stderr.contains("disconnected"), "\(r.stderr)")
            let kept = Self.kept(r.stderr)
            // The finished file (not the partial one) holds every frame encoded before the unplug.
            #expect(try dir.contents().filter { !$0.hasPrefix("bg-") } == ["fault.mp4"])
            let decoded = try FFprobe.count(out, decoding: true)
            #expect(decoded == kept && kept >= 30, "kept \(kept), decoded \(decoded)")
            let check = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-f", "null", "-"])
            #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
            #expect(Guest.waitForCamera(device), "vivid reconnects once every handle is closed")
            print("\(device) unplug after 2 s: \(kept) frames kept and decoded")
        }

        /// vivid drops every buffer (percentage_of_dropped_buffers 100), so the unplug surely lands
        /// before the first frame. A recording with no frame is no file: neither OUTPUT nor the
        /// partial one is left.
        @Test func unplugBeforeTheFirstFrameLeavesNoFile() throws {
            try Guest.resetFaults()
            try Guest.set("percentage_of_dropped_buffers", 100)
            defer { try? Guest.resetFaults() }
            let dir = try TemporaryDirectory()
            let out = dir.path("disc.mp4")
            let hfr = try BackgroundProcess(
                Tool.hfrPath,
                [
                    "record", out, "--device", Guest.camera, "--fps", "60", "--size", "320x180", "--duration", "60",
                    "--audio", "none",
                ], directory: dir)
            #expect(Tool.waitForFile(RecordPartial.path(out), timeout: 20))
            usleep(500_000)
            try Guest.set("disconnect", 1)
            let r = hfr.wait()
            #expect(r.status == 69, "\(r.stderr)")
            let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
            #expect(errors.count == 1, "\(r.stderr)")
            #expect(errors.first?.contains("\(Guest.camera): lost before the first frame") == true, "\(r.stderr)")
            #expect(errors.first?.contains("disconnected") == true, "\(r.stderr)")
            #expect(try dir.contents().filter { !$0.hasPrefix("bg-") } == [])
            #expect(Guest.waitForCamera(), "vivid reconnects once every handle is closed")
        }

        @Test(arguments: [Guest.camera, Guest.multiplanar])
        func fatalStreamingErrorIsNamedAndNothingIsLost(device: String) throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let (r, out) = try recordAndPress("inject_fatal_streaming_error", after: 2, in: dir, device: device)
            #expect(r.status == 69, "\(r.stderr)")
            #expect(r.stderr.contains("lost after") && r.stderr.contains("VIDIOC_DQBUF"), "\(r.stderr)")
            // Nothing lost: every frame hfr says it kept is in the file. How many vivid delivered in the
            // 2 s depends on the emulated guest's load (87 of 120 under TCG with the host suite beside
            // it), so the floor only shows that capture ran for a while: half a second at 60 fps.
            let kept = Self.kept(r.stderr)
            let decoded = try FFprobe.count(out, decoding: true)
            #expect(decoded == kept && kept >= 30, "kept \(kept), decoded \(decoded)")
        }

        /// N in hfr's "lost after N frames" line, or -1.
        static func kept(_ stderr: String) -> Int {
            Int(stderr.split(separator: " ").drop { $0 != "after" }.dropFirst().first ?? "") ?? -1
        }

        @Test func refusedStreamOnLeavesNothing() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            try Guest.set("inject_vidioc_streamon_error", 1)
            let r = try Tool.hfr(["record", dir.path("x.mp4"), "--device", Guest.camera, "--frames", "30"])
            #expect(r.status == 69, "\(r.stderr)")
            // The chosen mode is announced first; the error is then one line.
            let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
            #expect(errors.count == 1 && errors[0].contains("VIDIOC_STREAMON"), "\(r.stderr)")
            #expect(try dir.contents().isEmpty)
            // The fault was for one STREAMON: the next recording works.
            let again = try Tool.hfr(["record", dir.path("y.mp4"), "--device", Guest.camera, "--frames", "30"])
            #expect(again.status == 0, "\(again.stderr)")
        }

        /// A wrap to record through: vivid's `control` set to `value` on `device`, `seconds` at `fps`.
        struct Wrap: Sendable, CustomTestStringConvertible {
            let control: String
            let value: Int
            let device: String
            let fps: Int
            let seconds: Int
            var testDescription: String { "\(control)=\(value) on \(device)" }
        }

        /// vivid starts the sequence 128 frames before 2^32, and the 64-bit (1) or 32-bit-seconds
        /// (2) timestamp 16 s before it wraps: the recordings run past both. The two 20 s timestamp
        /// wraps record at once, from the two webcams (each has its own counters).
        @Test(arguments: [
            [Wrap(control: "wrap_sequence_number", value: 1, device: Guest.camera, fps: 30, seconds: 6)],
            [
                Wrap(control: "wrap_timestamp", value: 1, device: Guest.camera, fps: 10, seconds: 20),
                Wrap(control: "wrap_timestamp", value: 2, device: Guest.multiplanar, fps: 10, seconds: 20),
            ],
        ])
        func wrappingCountersGiveNoFalseDrops(_ wraps: [Wrap]) throws {
            try Guest.resetFaults()
            defer { try? Guest.resetFaults() }
            let dir = try TemporaryDirectory()
            var recordings: [(Wrap, String, BackgroundProcess)] = []
            for (i, wrap) in wraps.enumerated() {
                try Guest.set(wrap.control, wrap.value, on: wrap.device)
                let out = dir.path("wrap-\(i).mp4")
                let hfr = try BackgroundProcess(
                    Tool.hfrPath,
                    [
                        "record", out, "--device", wrap.device, "--fps", "\(wrap.fps)", "--size", "320x180",
                        "--duration", "\(wrap.seconds)", "--audio", "none", "--json",
                    ], directory: dir)
                recordings.append((wrap, out, hfr))
            }
            for (wrap, out, hfr) in recordings {
                let r = hfr.wait()
                #expect(r.status == 0, "\(wrap.testDescription): \(r.stderr)")
                let report = try Tool.json(r.stdout)
                // A false drop (a wrapped counter read as a jump) would be counted without a gap in the
                // file, or leave a gap hfr did not count. Real skips of vivid's frame thread under TCG
                // emulation are gaps and drops alike, so the count must equal the file's gaps exactly.
                let drops = report["framesDroppedByDevice"] as? Int ?? -1
                let late = report["framesDroppedLate"] as? Int ?? -1
                let times = try Guest.probe(out).times
                let gaps = CameraRecord.missingSlots(times, rate: Double(wrap.fps), seconds: Double(wrap.seconds))
                #expect(drops + late == gaps, "dropped \(drops), late \(late), file gaps \(gaps): \(r.stderr)")
                #expect(
                    abs(times.count + gaps - wrap.seconds * wrap.fps) <= 2, "\(times.count) frames + \(gaps) gaps")
                #expect(
                    zip(times, times.dropFirst()).allSatisfy {
                        let steps = ($1 - $0) * Double(wrap.fps)
                        return steps > 0.97 && abs(steps - steps.rounded()) < 0.03
                    }, "pts rise by whole steps of 1/\(wrap.fps) s")
                print(
                    "\(wrap.testDescription): \(times.count) frames, drops \(drops), late \(late), "
                        + "timestamp jumps \(report["timestampDiscontinuities"]!)")
            }
        }

        /// The flagged buffer's slot is a gap in the file counted once, as corrupt — not also as a
        /// camera drop. vivid under TCG emulation may skip real sequence numbers beside it (its frame
        /// thread wakes late when the guest is busy); those are drops and gaps too, so the check is
        /// exact: every gap in the file is one corrupt, dropped or late frame, never two.
        @Test func framesFlaggedWithErrorsAreCountedAndSkipped() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let out = dir.path("err.mp4")
            let hfr = try BackgroundProcess(
                Tool.hfrPath,
                [
                    "record", out, "--device", Guest.camera, "--fps", "30", "--size", "320x180", "--duration", "4",
                    "--audio", "none", "--json",
                ], directory: dir)
            #expect(Tool.waitForFile(RecordPartial.path(out), timeout: 20))
            usleep(1_000_000)
            try Guest.set("inject_v4l2_buf_flag_error", 1)
            let r = hfr.wait()
            #expect(r.status == 0, "\(r.stderr)")
            let report = try Tool.json(r.stdout)
            let drops = report["framesDroppedByDevice"] as? Int ?? -1
            let late = report["framesDroppedLate"] as? Int ?? -1
            #expect(report["framesCorrupt"] as? Int == 1, "\(r.stderr)")
            #expect(r.stderr.contains("1 corrupt skipped"))
            let probe = try Guest.probe(out, decoding: true)
            let times = probe.times
            let gaps = CameraRecord.missingSlots(times, rate: 30, seconds: 4)
            #expect(gaps == 1 + drops + late, "file gaps \(gaps); corrupt 1, dropped \(drops), late \(late)")
            let decoded = probe.decodedFrames
            #expect(decoded == report["framesEncoded"] as? Int)
            print("error flag: \(times.count) frames, 1 corrupt, \(drops) dropped, \(late) late, \(gaps) gaps")
        }

        @Test func reducedFrameRateIsRecordedAsExactly60000Over1001() throws {
            try Guest.resetFaults()
            try Guest.set("reduced_framerate", 1, on: Guest.hdmi)
            defer { try? Guest.resetFaults() }
            let dir = try TemporaryDirectory()
            let out = dir.path("ntsc.mp4")
            // The HDMI input's 720p60 timings at 1000/1001: the driver says 12375/741758 s per frame.
            let parm = try Tool.run("v4l2-ctl", ["-d", Guest.hdmi, "--get-parm"])
            #expect(parm.stdout.contains("59.940"), "\(parm.stdout)")
            let r = try Tool.hfr([
                "record", out, "--device", Guest.hdmi, "--fps", "60000/1001", "--size", "320x180", "--frames", "30",
                "--audio", "none", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try Tool.json(r.stdout)["frameRate"] as? String == "60000/1001")
            #expect(try Guest.probe(out).entry("video", "r_frame_rate") == "60000/1001")
            // Asking for 60 on that input is refused, naming the 59.94 it offers.
            let sixty = try Tool.hfr([
                "record", dir.path("x.mp4"), "--device", Guest.hdmi, "--fps", "60", "--size", "320x180",
            ])
            #expect(sixty.status == 69 && sixty.stderr.contains("reaches 59.94 fps at most"), "\(sixty.stderr)")
        }
    }
}

/// Where `hfr record` writes while recording.
enum RecordPartial {
    static func path(_ output: String) -> String {
        (output as NSString).deletingPathExtension + ".partial.mp4"
    }
}
