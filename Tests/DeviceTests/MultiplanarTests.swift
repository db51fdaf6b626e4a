import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    /// vivid's webcam on the multi-planar API (`multiplanar=2`, /dev/video3): what HDMI capture
    /// devices and SoC camera interfaces offer. Its faults are the ones of `Faults`, run on both nodes.
    @Suite struct Multiplanar {
        @Test func formatsListExactlyWhatV4L2CtlLists() throws {
            let reference = try Catalog.v4l2CtlModes(Guest.multiplanar)
            let listed = try Catalog.hfrModes(Guest.multiplanar)
            // The multi-planar API adds the layouts with a buffer per plane.
            #expect(reference.formats.contains("NM12") && reference.formats.contains("YM12"), "\(reference.formats)")
            #expect(listed.formats == reference.formats, "hfr \(listed.formats), v4l2-ctl \(reference.formats)")
            let onlyReference = reference.modes.subtracting(listed.modes).sorted()
            let onlyListed = listed.modes.subtracting(reference.modes).sorted()
            #expect(
                onlyReference.isEmpty && onlyListed.isEmpty,
                "only v4l2-ctl: \(onlyReference.prefix(5)) (\(onlyReference.count)), only hfr: \(onlyListed.prefix(5))"
            )
            let best = listed.json["maxFrameRateMode"] as? [String: Any]
            #expect(best?["width"] as? Int == 320 && best?["frameRate"] as? String == "60/1")
            print(
                "multi-planar: hfr \(listed.formats.count) pixel formats, \(listed.modes.count) modes; v4l2-ctl",
                "\(reference.formats.count), \(reference.modes.count)")
        }

        @Test func fpsMaxFillsEverySlotForFiveSeconds() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let out = dir.path("mplane.mp4")
            let r = try Tool.hfr([
                "record", out, "--device", Guest.multiplanar, "--fps", "max", "--duration", "5", "--audio", "none",
                "--late-frames", "queue", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let report = try Tool.json(r.stdout)
            #expect(report["width"] as? Int == 320 && report["height"] as? Int == 180)
            #expect(report["frameRate"] as? String == "60/1")
            let probe = try Guest.probe(out, decoding: true)
            let frames = probe.decodedFrames
            let drops = report["framesDroppedByDevice"] as? Int ?? -1
            // Every one of the 300 slots is a frame in the file or a drop the driver reported.
            #expect(abs(frames + drops - 300) <= 2, "frames: \(frames), camera drops \(drops)")
            #expect(report["framesCorrupt"] as? Int == 0 && report["framesDroppedLate"] as? Int == 0)
            #expect(probe.entry("video", "r_frame_rate") == "60/1")
            print(
                "multi-planar --fps max 5 s: \(report["sourcePixelFormat"]!) \(frames) frames, camera drops \(drops),",
                "\(report["wallSeconds"]!) s wall")
        }

        /// vivid's default pattern, 75 % colour bars, in its two-buffer (NV12M: luma, then CbCr) and
        /// three-buffer (YVU420M: luma, Cr, Cb) layouts: every bar has its colour, so the chroma
        /// came from the right buffer in the right order.
        @Test(arguments: ["NV12M", "YVU420M"])
        func aLayoutWithABufferPerPlaneRecordsTheRightPicture(format: String) throws {
            let dir = try TemporaryDirectory()
            let out = dir.path("bars.mp4")
            let r = try Tool.hfr([
                "record", out, "--device", Guest.multiplanar, "--pixel-format", format, "--size", "320x180",
                "--fps", "30", "--frames", "10", "--audio", "none", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let fourCC = format == "NV12M" ? "NM12" : "YM21"
            #expect(try Tool.json(r.stdout)["sourcePixelFormat"] as? String == fourCC)
            let rgb = dir.path("frame.rgb")
            let decode = try Tool.run(
                "ffmpeg",
                ["-nostdin", "-v", "error", "-i", out, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", rgb])
            #expect(decode.status == 0, "\(decode.stderr)")
            let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rgb)))
            #expect(pixels.count == 320 * 180 * 3)
            guard pixels.count == 320 * 180 * 3 else { return }
            // White, yellow, cyan, green, magenta, red, blue, black at 75 %, sampled at each bar's
            // centre near the bottom (vivid's text is at the top).
            let bars: [[Int]] = [
                [191, 191, 191], [191, 191, 0], [0, 191, 191], [0, 191, 0], [191, 0, 191], [191, 0, 0], [0, 0, 191],
                [0, 0, 0],
            ]
            let samples = (0..<8).map { bar in
                let at = (160 * 320 + bar * 40 + 20) * 3
                return (0..<3).map { Int(pixels[at + $0]) }
            }
            let off = zip(samples, bars).map { zip($0, $1).map { abs($0 - $1) }.max()! }
            #expect(off.allSatisfy { $0 <= 24 }, "\(format) bars \(samples)")
            print("\(format) colour bars: \(samples), off by \(off.max()!) at most")
        }
    }
}
