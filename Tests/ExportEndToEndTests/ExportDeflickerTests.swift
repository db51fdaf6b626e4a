import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `--deflicker`: mains flicker taken out of a pattern it was put into, measured against the same
/// pattern without it, and against FFmpeg's `deflicker` on the same input (printed side by side).
@Suite struct ExportDeflickerTests {
    /// What an export did to the flickering clip: its luma, and the clean and flickering clips'.
    struct Outcome {
        let clean: [[UInt8]]
        let flickering: [[UInt8]]
        let corrected: [[UInt8]]
        let ffmpeg: [[UInt8]]
        let json: [String: Any]
    }

    /// The export, written losslessly (`--codec ffv1`): what is measured is the deflicker, not an
    /// encoder's loss (at the delivery encoder's default crf:18, 320x180 of this pattern loses
    /// about 2 dB re-encoded with or without flicker).
    static func export(_ clip: FlickerClip, in dir: TemporaryDirectory) throws -> Outcome {
        let out = dir.path("out\(clip.rate).mkv")
        let r = try Tool.hfr(
            ["export", clip.flickering, out, "--conform", "30", "--deflicker", "auto", "--codec", "ffv1", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let ffmpeg = dir.path("ffmpeg\(clip.rate).mkv")
        try ExportInputs.ffmpeg(["-i", clip.flickering, "-vf", "deflicker=size=9", "-c:v", "ffv1", ffmpeg])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        return Outcome(
            clean: try FlickerClip.luma(clip.clean, in: dir),
            flickering: try FlickerClip.luma(clip.flickering, in: dir),
            corrected: try FlickerClip.luma(out, in: dir), ffmpeg: try FlickerClip.luma(ffmpeg, in: dir), json: json)
    }

    /// How many dB the frame means' flicker drops (at 100 Hz as the rate aliases it), and PSNR.
    static func figures(_ o: Outcome, rate: Int) -> (hfr: Double, ffmpeg: Double, psnr: Double, ffmpegPSNR: Double) {
        let before = FlickerClip.amplitude(FlickerClip.means(o.flickering), hz: 100, rate: rate)
        let drop = { (p: [[UInt8]]) in
            20 * log10(before / max(FlickerClip.amplitude(FlickerClip.means(p), hz: 100, rate: rate), 1e-9))
        }
        return (
            drop(o.corrected), drop(o.ffmpeg), FlickerClip.psnr(o.corrected, o.clean),
            FlickerClip.psnr(o.ffmpeg, o.clean)
        )
    }

    /// 100 Hz flicker at 240 fps and at 120 fps (where it aliases to 20 Hz): the frame means'
    /// flicker drops by 30 dB or more, and the output is within 45 dB (luma PSNR) of the pattern
    /// without flicker.
    /// With the light scaling red, green and blue, chroma is corrected too.
    @Test(arguments: [(240, FlickerClip.Light.global), (120, .global), (240, .rgb)])
    func flickerIsTakenOutOfTheFrameMeans(rate: Int, light: FlickerClip.Light) throws {
        let dir = try TemporaryDirectory()
        let clip = try FlickerClip(in: dir, rate: rate, light: light)
        let o = try Self.export(clip, in: dir)
        #expect(o.corrected.count == o.clean.count && o.clean.count == rate)
        let f = Self.figures(o, rate: rate)
        print(
            "deflicker \(rate) fps \(light): hfr −\(f.hfr) dB, \(f.psnr) dB PSNR; ffmpeg deflicker −\(f.ffmpeg) dB, \(f.ffmpegPSNR) dB"
        )
        #expect(f.hfr >= 30)
        #expect(f.psnr >= 45)
        let video = o.json["video"] as? [String: Any]
        let d = try #require(video?["deflicker"] as? [String: Any])
        #expect(abs((d["frequency"] as? Double ?? 0) - 100) < 1)
        #expect(abs((d["depthBefore"] as? Double ?? 0) - 0.15) < 0.02)
        // Below what auto calls flicker: what is left is the pattern's own motion.
        #expect((d["depthAfter"] as? Double ?? 1) < 0.01)
        #expect(d["chroma"] as? Bool == (light == .rgb))
    }

    /// A rolling shutter's bands: every row's mean comes within a tenth (20 dB) of its residual.
    @Test func rollingShutterBandsAreTakenOutRowByRow() throws {
        let dir = try TemporaryDirectory()
        let clip = try FlickerClip(in: dir, rate: 240, light: .bands)
        let o = try Self.export(clip, in: dir)
        let before = FlickerClip.rowResidual(o.flickering, o.clean)
        let after = FlickerClip.rowResidual(o.corrected, o.clean)
        let ffmpeg = FlickerClip.rowResidual(o.ffmpeg, o.clean)
        print("bands: row residual \(before) → hfr \(after), ffmpeg deflicker \(ffmpeg) levels")
        #expect(20 * log10(before / after) >= 20)
        let d = (o.json["video"] as? [String: Any])?["deflicker"] as? [String: Any]
        #expect(d?["bands"] as? Bool == true)
    }

    /// A real change of light (a step up at 0.5 s) stays: its height within 2 %, and every picture
    /// within 6 of it within 1.5 levels of the pattern without flicker.
    @Test func aStepOfLightSurvives() throws {
        let dir = try TemporaryDirectory()
        let clip = try FlickerClip(in: dir, rate: 240, light: .step)
        let o = try Self.export(clip, in: dir)
        let clean = FlickerClip.means(o.clean)
        let out = FlickerClip.means(o.corrected)
        let ffmpeg = FlickerClip.means(o.ffmpeg)
        let step = 120
        func height(_ m: [Double]) -> Double {
            let after = m[(step + 12)..<(step + 60)].reduce(0, +) / 48
            let before = m[(step - 60)..<(step - 12)].reduce(0, +) / 48
            return after - before
        }
        #expect(abs(height(out) / height(clean) - 1) < 0.02)
        let near = (step - 6)...(step + 6)
        let worst = near.map { abs(out[$0] - clean[$0]) }.max() ?? 0
        let ffmpegWorst = near.map { abs(ffmpeg[$0] - clean[$0]) }.max() ?? 0
        print("step: worst frame mean near it \(worst) levels (ffmpeg deflicker \(ffmpegWorst))")
        #expect(worst <= 1.5)
        // The dry run measures the same flicker and plans the same correction.
        let dry = try Tool.hfr([
            "export", clip.flickering, dir.path("dry.mkv"), "--conform", "30", "--deflicker", "auto", "--codec", "ffv1",
            "--dry-run", "--json",
        ])
        let plan = try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any]
        let planned = plan?["deflicker"] as? [String: Any]
        let done = (o.json["plan"] as? [String: Any])?["deflicker"] as? [String: Any]
        #expect(planned?["corrected"] as? Bool == true)
        #expect(planned?["frequency"] as? Double == done?["frequency"] as? Double)
        #expect(planned?["depthBefore"] as? Double == done?["depthBefore"] as? Double)
    }

    /// `hfr probe` reads the flicker of the first pictures: 100 Hz within 1 Hz, its depth within
    /// 2 points; none in the clean pattern.
    @Test func probeReportsTheFlicker() throws {
        let dir = try TemporaryDirectory()
        let clip = try FlickerClip(in: dir, rate: 240, light: .global)
        func reading(_ path: String) throws -> [String: Any]? {
            let r = try Tool.hfr(["probe", path, "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            return json?["flicker"] as? [String: Any]
        }
        let found = try #require(try reading(clip.flickering))
        #expect(found["found"] as? Bool == true)
        #expect(abs((found["frequency"] as? Double ?? 0) - 100) < 1)
        #expect(abs((found["depth"] as? Double ?? 0) - 0.15) < 0.02)
        // Matroska's milliseconds round 240 fps times by up to half a millisecond (18° of 100 Hz):
        // put back on the frame grid, the same reading.
        let mkv = dir.path("flicker.mkv")
        try ExportInputs.ffmpeg(["-i", clip.flickering, "-c", "copy", mkv])
        let fromMKV = try #require(try reading(mkv))
        #expect(abs((fromMKV["frequency"] as? Double ?? 0) - 100) < 1)
        #expect(abs((fromMKV["depth"] as? Double ?? 0) - 0.15) < 0.02)
        let none = try #require(try reading(clip.clean))
        #expect(none["found"] as? Bool == false)
        let text = try Tool.hfr(["probe", clip.flickering]).stdout
        #expect(text.contains("Flicker: mains flicker 100.0 Hz, depth 1"))
    }

    /// No flicker, nothing done: `auto` finds none and copies the video.
    @Test func aCleanPictureIsCopied() throws {
        let dir = try TemporaryDirectory()
        let clip = try FlickerClip(in: dir, rate: 120, light: .global)
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", clip.clean, out, "--conform", "30", "--deflicker", "auto", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let video = json?["video"] as? [String: Any]
        #expect(video?["reencoded"] as? Bool == false)
        #expect((video?["deflicker"] as? [String: Any])?["corrected"] as? Bool == false)
        #expect(r.stderr.contains("no mains flicker found"))
    }
}
