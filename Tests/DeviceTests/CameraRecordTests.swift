import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension DeviceTests {
    @Suite struct CameraRecord {
        /// Empty slots on the 1/rate grid between consecutive frame times.
        static func gridGaps(_ times: [Double], rate: Double) -> Int {
            zip(times, times.dropFirst()).reduce(0) { $0 + max(0, Int((($1.1 - $1.0) * rate).rounded()) - 1) }
        }

        /// Empty slots of a `seconds`-long recording: the gaps between frames and the slots after the
        /// last frame (hfr counts those the source skipped before `--duration` ended as drops too).
        static func missingSlots(_ times: [Double], rate: Double, seconds: Double) -> Int {
            guard let first = times.first, let last = times.last else { return Int(seconds * rate) }
            let lastSlot = Int(((last - first) * rate).rounded())
            return gridGaps(times, rate: rate) + max(0, Int((seconds * rate).rounded()) - 1 - lastSlot)
        }

        @Test func sixtyFramesPerSecondForFiveSeconds() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let out = dir.path("cam.mp4")
            // Under emulation the first run of each code path is slow (qemu translates it): warm up.
            _ = try Tool.hfr([
                "record", dir.path("warm.mp4"), "--device", Guest.camera, "--frames", "60", "--audio", "none",
            ])
            try FileManager.default.removeItem(atPath: dir.path("warm.mp4"))
            let r = try Tool.hfr([
                "record", out, "--device", Guest.camera, "--fps", "60", "--duration", "5", "--audio", "none",
                "--late-frames", "queue", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let report = try Tool.json(r.stdout)
            let probe = try Guest.probe(out, decoding: true)
            let frames = probe.decodedFrames
            let drops = report["framesDroppedByDevice"] as? Int ?? -1
            // Every one of the 300 slots is either a frame in the file or a drop the driver reported.
            #expect(frames + drops == 300, "frames: \(frames), camera drops \(drops)")
            #expect(report["framesCorrupt"] as? Int == 0)
            #expect(report["framesDroppedLate"] as? Int == 0)
            #expect(probe.entry("video", "r_frame_rate") == "60/1")
            // The pts follow the driver's frames: one slot of 1/60 s each, strictly rising, and the
            // empty slots are exactly the drops hfr reported from v4l2_buffer.sequence.
            let times = probe.times
            #expect(times.count == frames)
            #expect(CameraRecord.missingSlots(times, rate: 60, seconds: 5) == drops)
            let steps = zip(times, times.dropFirst()).map { ($1 - $0) * 60 }
            #expect(steps.allSatisfy { $0 > 0.97 && abs($0 - $0.rounded()) < 0.06 }, "pts off the 1/60 s grid")
            // hfr itself never fell behind: its capture queue never filled, so a frame the driver
            // skipped was not one hfr failed to take.
            let depth = report["maxQueueDepth"] as? Int ?? 99
            let capacity = report["queueCapacity"] as? Int ?? 0
            #expect(depth < capacity, "capture queue reached \(depth) of \(capacity)")
            // vivid's frame thread runs inside the emulated guest: when the guest's CPUs are busy it
            // wakes late and skips single sequence numbers (measured: v4l2-ctl alone loses 0 of 300
            // frames on an idle guest, 7 of 300 while hfr encodes the test source beside it). On
            // real hardware or an idle guest the count is 0; under TCG it is a known, measured limit.
            withKnownIssue("vivid under TCG emulation skips frames when the guest CPU is busy", isIntermittent: true) {
                #expect(drops == 0, "camera drops: \(drops)")
            }
            // How many slots vivid skips is the emulator's, not hfr's (the exact checks above are
            // hfr's): 2 of 300 when the guest suite ran alone, 11 to 62 in fresh-clone runs with the
            // host's suites beside the guest (stops 41, 48, 49). So only that the camera delivered:
            // most of the slots are frames in the file.
            #expect(drops < 150, "more than half the slots dropped: \(drops)")
            print(
                "vivid 60 fps 5 s: \(frames) frames, camera drops \(drops), queue \(depth)/\(capacity),",
                "\(report["wallSeconds"]!) s wall")
        }

        @Test func driverDropsAreCountedFromSequenceGaps() throws {
            try Guest.resetFaults()
            try Guest.set("percentage_of_dropped_buffers", 10)
            defer { try? Guest.resetFaults() }
            let dir = try TemporaryDirectory()
            let out = dir.path("drops.mp4")
            let r = try Tool.hfr([
                "record", out, "--device", Guest.camera, "--fps", "60", "--duration", "5", "--audio", "none", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let report = try Tool.json(r.stdout)
            let reported = report["framesDroppedByDevice"] as? Int ?? -1
            let times = try Guest.probe(out).times
            let gaps = CameraRecord.missingSlots(times, rate: 60, seconds: 5)
            let slots = times.count + gaps
            // The file's own gaps (from ffprobe) agree with hfr's count (from v4l2_buffer.sequence).
            #expect(abs(reported - gaps) <= max(1, slots / 100), "reported \(reported), gaps in the file \(gaps)")
            // The drops are vivid's: 10 % of the slots, a binomial count (within 4 standard
            // deviations: 30 ± 21 of 300), plus the slots vivid's frame thread skips under TCG
            // emulation (seen: up to 62
            // of 300 while the host's batch suites ran beside the guest).
            let injected = 0.1 * Double(slots)
            let spread = 4 * (injected * 0.9).squareRoot()
            #expect(
                Double(reported) > injected - spread && Double(reported) < injected + spread + 0.2 * Double(slots),
                "\(reported) of \(slots)")
            #expect(r.stderr.contains("camera dropped \(reported)"))
            print("vivid 10 % dropped buffers: reported \(reported), file gaps \(gaps), of \(slots) slots")
        }

        /// Issue 29, acceptance 5: vivid at its highest rate with a pre-trigger ring and 5 % of its
        /// buffers dropped: every slot of the clip is a frame in it or a drop the driver reported,
        /// and the clip's own gaps (ffprobe) are the ones hfr counted.
        @Test func aTriggeredClipAccountsForEverySlotTheDriverSent() throws {
            try Guest.resetFaults()
            try Guest.set("percentage_of_dropped_buffers", 5)
            defer { try? Guest.resetFaults() }
            let dir = try TemporaryDirectory()
            let hfr = try BackgroundProcess(
                Tool.hfrPath,
                [
                    "record", dir.path("clip.mp4"), "--device", Guest.camera, "--fps", "max", "--audio", "none",
                    "--duration", "6", "--trigger", "signal", "--pre-trigger", "1s", "--post-trigger", "1s", "--json",
                ], directory: dir)
            #expect(hfr.waitForOutput(timeout: 30))
            usleep(3_000_000)
            let (r, report, clips) = try hfr.signalTriggerAndWait()
            #expect(r.status == 0, "\(r.stderr)")
            try #require(clips.count == 1, "\(r.stderr)")
            let fraction = (report["frameRate"] as? String ?? "").split(separator: "/").compactMap { Double($0) }
            let rate = fraction.count == 2 ? fraction[0] / fraction[1] : 0
            let frames = clips[0]["frames"] as? Int ?? -1
            let missing = clips[0]["framesMissing"] as? Int ?? -1
            let clip = dir.path("clip-001.mp4")
            // The frames shown (the key-frame run before the window has negative times).
            let probe = try Guest.probe(clip, decoding: true)
            let times = probe.times.filter { $0 >= -1e-6 }
            let decoded = probe.decodedFrames
            #expect(times.count == frames && frames == decoded)
            // The clip shows its first frame at 0, and its empty slots are the ones hfr counted.
            let steps = zip(times, times.dropFirst()).map { (($1 - $0) * rate * 100).rounded() / 100 }.filter {
                $0 != 1
            }
            #expect(times.first.map { abs($0) < 1e-6 } == true, "first shown frame at \(times.first ?? -1) s")
            #expect(
                CameraRecord.gridGaps(times, rate: rate) == missing, "steps other than one frame: \(steps), \(r.stderr)"
            )
            let duration = probe.duration
            #expect(frames + missing == Int((duration * rate).rounded()), "\(frames) + \(missing) in \(duration) s")
            // 2 s: more when the frames at the window's start were dropped (the clip then starts
            // with the one before them, on screen at that time: before the second frame shown),
            // less the slots of drops at its end.
            let before = times.count > 1 ? times[1] - times[0] : 1 / rate
            #expect(duration > 1.9 && duration <= 2 + before + 0.5 / rate, "\(duration) s")
            // Nothing hfr lost itself: the missing slots are the driver's drops.
            #expect(report["framesDroppedLate"] as? Int == 0)
            #expect(missing <= report["framesDroppedByDevice"] as? Int ?? -1)
            print("vivid \(rate) fps with 5 % dropped, 2 s clip: \(frames) frames + \(missing) dropped")
        }

        @Test func aModeThatCannotReachTheRateIsRefused() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let r = try Tool.hfr([
                "record", dir.path("x.mp4"), "--device", Guest.camera, "--fps", "30", "--size", "640x480",
            ])
            #expect(r.status == 69)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("640x480 reaches 25 fps at most"))
            #expect(r.stderr.contains("30 fps is offered at 320x180, 640x360"))
            #expect(try dir.contents().isEmpty)
        }

        @Test func gainAndNamedControlsReachTheDriver() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let r = try Tool.hfr([
                "record", dir.path("c.mp4"), "--device", Guest.camera, "--frames", "10", "--audio", "none",
                "--gain", "77", "--control", "brightness=140",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let gain = try Tool.run("v4l2-ctl", ["-d", Guest.camera, "-C", "gain,brightness"])
            #expect(gain.stdout.contains("gain: 77") && gain.stdout.contains("brightness: 140"), "\(gain.stdout)")
            _ = try Tool.run("v4l2-ctl", ["-d", Guest.camera, "-c", "brightness=128"])
        }

        /// `--exposure antiflicker=50` at 60 fps, where one 10 ms period fits a frame: vivid has neither
        /// power_line_frequency nor exposure_time_absolute (v4l2-ctl lists neither), so a warning says
        /// nothing avoids the flicker, the recording goes on, and --json carries the choice. Setting
        /// and reading back both controls: HFRCaptureTests' AntiFlickerTests on a scripted driver.
        @Test func antiflickerOnACameraWithoutItsControlsWarnsAndRecords() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let r = try Tool.hfr([
                "record", dir.path("a.mp4"), "--device", Guest.camera, "--fps", "60", "--frames", "10",
                "--audio", "none", "--exposure", "antiflicker=50", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let line =
                "Warning: anti-flicker: \(Guest.camera) has neither a power_line_frequency nor an exposure_time_absolute "
                + "control: nothing at capture avoids the flicker of mains-lit scenes\n"
            #expect(r.stderr.contains(line), "\(r.stderr)")
            print(r.stderr)
            let report = try Tool.json(r.stdout)
            let choice = report["antiflicker"] as? [String: Any]
            #expect(choice?["method"] as? String == "none" && choice?["mains"] as? Int == 50, "\(r.stdout)")
            #expect(choice?["warning"] as? Bool == true && choice?["exposureSeconds"] is NSNull)
            #expect(report["framesEncoded"] as? Int == 10)
            let listed = try Tool.run("v4l2-ctl", ["-d", Guest.camera, "--list-ctrls"])
            #expect(listed.status == 0 && listed.stdout.contains("gain"), "\(listed.stderr)")
            #expect(
                !listed.stdout.contains("power_line_frequency") && !listed.stdout.contains("exposure_time_absolute"))
        }

        @Test(arguments: [
            (["--exposure", "1/500"], "has no exposure control"),
            (["--focus", "auto"], "has no automatic focus control"),
            (["--control", "no_such_control=1"], "has no control 'no_such_control'"),
            (["--gain", "100000"], "gain 100000 is out of range"),
        ])
        func controlsTheCameraLacksAreClearErrors(arguments: [String], message: String) throws {
            let dir = try TemporaryDirectory()
            let r = try Tool.hfr(["record", dir.path("c.mp4"), "--device", Guest.camera, "--frames", "10"] + arguments)
            #expect(r.status != 0 && r.status != 1)
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").first.map { $0.hasPrefix("Error: ") } ?? false)
            #expect(try dir.contents().isEmpty)
        }
    }
}
