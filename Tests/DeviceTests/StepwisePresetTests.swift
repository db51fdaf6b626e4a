import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    /// vivid's HDMI input offers a stepwise range of sizes up to 16384x8640 (its 4x scaler over
    /// 4096x2160): `--fps max` takes the largest preset size reaching the top rate, and `formats`
    /// says which.
    @Suite struct StepwisePresets {
        @Test func fpsMaxOnTheHDMIInputRecordsAPresetSizeThatFormatsNames() throws {
            try Guest.resetFaults()
            let formats = try Tool.hfr(["formats", "--device", Guest.hdmi, "--json"])
            #expect(formats.status == 0, "\(formats.stderr)")
            let json = try Tool.json(formats.stdout)
            let best = try #require(json["maxFrameRateMode"] as? [String: Any])
            let (width, height) = (best["width"] as? Int ?? 0, best["height"] as? Int ?? 0)
            let format = best["format"] as? String ?? "?"
            let entry = try #require((json["formats"] as? [[String: Any]])?.first { $0["fourcc"] as? String == format })
            let range = try #require((entry["sizes"] as? [[String: Any]])?.first)
            #expect(range["type"] as? String == "stepwise" && range["maxWidth"] as? Int == 16384, "\(range)")
            let presets = range["presets"] as? [[String: Any]] ?? []
            let taken = presets.filter { $0["takenByFpsMax"] as? Bool == true }
            #expect(taken.count == 1, "\(presets)")
            #expect(taken.first?["width"] as? Int == width && taken.first?["height"] as? Int == height)
            // The driver's own answer at that size (v4l2-ctl, not hfr) reaches the rate taken.
            let intervals = try Tool.run(
                "v4l2-ctl",
                ["-d", Guest.hdmi, "--list-frameintervals", "width=\(width),height=\(height),pixelformat=\(format)"])
            let fps = Self.rate(best["frameRate"] as? String ?? "") ?? 0
            #expect(intervals.stdout.contains(String(format: "%.3f fps", fps)), "\(intervals.stdout)")

            // The table marks the same preset as what --fps max takes.
            let text = try Tool.hfr(["formats", "--device", Guest.hdmi])
            #expect(text.stdout.contains("*   preset \(width)x\(height)"), "\(text.stdout.prefix(600))")
            #expect(text.stdout.contains(" fps at \(width)x\(height) \(format) (* = what record --fps max takes)"))

            let dir = try TemporaryDirectory()
            let out = dir.path("hdmi.mp4")
            let r = try Tool.hfr([
                "record", out, "--device", Guest.hdmi, "--fps", "max", "--frames", "1", "--audio", "none", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let report = try Tool.json(r.stdout)
            #expect(report["width"] as? Int == width && report["height"] as? Int == height, "\(r.stdout)")
            let probe = try Guest.probe(out)
            #expect(probe.entry("video", "width") == "\(width)" && probe.entry("video", "height") == "\(height)")
            #expect(width != 16384 && [2160, 1080, 720, 480].contains(height))
            print(
                "vivid HDMI --fps max: \(width)x\(height) \(format) at \(best["frameRate"]!) fps,",
                "record took \(report["wallSeconds"] ?? "?") s")
        }

        /// "60/1" or "60000/1001" as a number.
        static func rate(_ text: String) -> Double? {
            let parts = text.split(separator: "/").compactMap { Double($0) }
            return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : nil
        }
    }
}
