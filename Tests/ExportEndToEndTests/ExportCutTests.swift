import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Scene cuts in interpolated exports (`CutDetector`, `--cut-fill`): two different clips joined,
/// exported 4× slower at 60 fps; no frame made between them mixes the two, and the cut is listed.
@Suite(.serialized) struct ExportCutTests {
    /// 2 s at 60 fps, 320x240: 1 s of a fast pan across testsrc2 (1200 px/s, 20 px per frame), then
    /// 1 s of mandelbrot's zoom; one stream (x264), so the cut is at 1 s, between frames 59 and 60.
    static let joined: Result<String, any Error> = Result {
        guard let dir = ExportInputs.directory else { throw CocoaError(.fileWriteUnknown) }
        let path = dir.path("cut-60.mp4")
        try ExportInputs.ffmpeg([
            "-filter_complex",
            "testsrc2=size=1600x240:rate=60:duration=1,crop=320:240:x='t*1200':y=0,setsar=1[a];"
                + "mandelbrot=size=320x240:rate=60,trim=duration=1,setpts=PTS-STARTPTS[b];"
                + "[a][b]concat=n=2:v=1:a=0,format=yuv420p",
            "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", path,
        ])
        return path
    }

    /// The last frame of the pan.
    static let lastBefore = 59

    /// `--speed 0.25 --fps 60 --range 0.9-1.1` with flow: output slot i shows source time 0.9 + i/240
    /// s, so slot 20 shows frame 59 (the pan's last), slot 24 frame 60 (the zoom's first), and slots
    /// 21–23 lie between them. With the default `--cut-fill repeat` those show frame 59 (differing from
    /// it by the re-encode's error on captured frames, no more); the cut is listed, at source 1 s,
    /// output 0.4 s; the three slots are not counted as made (the dry run, which decodes nothing,
    /// counts them).
    @Test func noFrameMixesTwoClips() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.joined.get()
        let out = dir.path("slow.mp4")
        let options = ["--speed", "0.25", "--fps", "60", "--range", "0.9-1.1"]
        let r = try Tool.hfr(["export", input, out, "--json"] + options)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let video = try #require(try Tool.json(r.stdout)["video"] as? [String: Any])
        #expect(video["interpolation"] as? String == "flow")
        let cuts = try #require(video["cuts"] as? [[String: Any]])
        #expect(cuts.count == 1, "\(cuts)")
        #expect(cuts.first?["source"] as? Double == 1 && cuts.first?["output"] as? Double == 0.4, "\(cuts)")
        #expect(video["cutFill"] as? String == "repeat")
        #expect(r.stderr.contains("Note: 1 scene cut (source 1 s): not interpolated across (repeat"), "\(r.stderr)")
        let dry = try Tool.hfr(["export", input, dir.path("dry.mp4"), "--dry-run", "--json"] + options)
        #expect(try Tool.json(dry.stdout)["cutFill"] as? String == "repeat")
        // 48 slots, 12 of them captured frames.
        #expect(try Tool.json(dry.stdout)["interpolatedFrames"] as? Int == 36)
        #expect(video["interpolatedFrames"] as? Int == 33)

        let source = try Pictures(input, in: dir)
        let exported = try Pictures(out, in: dir)
        #expect(source.count == 120 && exported.count == 48)
        guard source.count == 120, exported.count == 48 else { return }
        // The re-encode's own error on captured frames (slot 4k shows frame 54 + k).
        let noise = stride(from: 0, to: 48, by: 4).map { exported.difference($0, source, 54 + $0 / 4) }.sorted()
        let baseline = noise[noise.count / 2]
        let a = Self.lastBefore
        let between = source.difference(a, source, a + 1)
        #expect(between > 10 * baseline, "the clips differ by \(between), the re-encode by \(baseline)")
        for i in 20...23 {
            let (da, db) = (exported.difference(i, source, a), exported.difference(i, source, a + 1))
            #expect(da < 2 * baseline && db > between / 2, "slot \(i): \(da) from frame \(a), \(db) from \(a + 1)")
        }
        #expect(exported.difference(24, source, a + 1) < 2 * baseline)
    }

    /// `--cut-fill crossfade`: the three slots between the cut's frames are cross-fades, nearer to the
    /// frames' average weighted by the slot's fraction than to either frame, and counted as made.
    @Test func crossfadeBlendsTheTwoFrames() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.joined.get()
        let out = dir.path("faded.mp4")
        let r = try Tool.hfr(
            ["export", input, out, "--json", "--speed", "0.25", "--fps", "60", "--range", "0.9-1.1"]
                + ["--cut-fill", "crossfade"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let video = try #require(try Tool.json(r.stdout)["video"] as? [String: Any])
        #expect((video["cuts"] as? [[String: Any]])?.map { $0["source"] as? Double } == [1])
        #expect(video["cutFill"] as? String == "crossfade")
        #expect(video["interpolatedFrames"] as? Int == 36)
        let source = try Pictures(input, in: dir)
        let exported = try Pictures(out, in: dir)
        #expect(exported.count == 48)
        guard exported.count == 48 else { return }
        let a = Self.lastBefore
        let (fa, fb) = (source.frame(a), source.frame(a + 1))
        for (i, fraction) in [(21, 0.25), (22, 0.5), (23, 0.75)] {
            let mix = fa.indices.map { UInt8(((1 - fraction) * Double(fa[$0]) + fraction * Double(fb[$0])).rounded()) }
            let toMix = Pictures.difference(exported.frame(i), mix)
            let (da, db) = (exported.difference(i, source, a), exported.difference(i, source, a + 1))
            #expect(toMix < min(da, db) / 2, "slot \(i): \(toMix) from the mix, \(da) and \(db) from the frames")
        }
    }

    /// The pan alone (fast motion, 20 px per frame, no cut) made 2× slower with blend: no cut listed.
    @Test func fastMotionIsNoCut() throws {
        let dir = try TemporaryDirectory()
        let r = try Tool.hfr(
            ["export", try Self.joined.get(), dir.path("pan.mp4"), "--json", "--speed", "0.5", "--fps", "60"]
                + ["--range", "0-0.95", "--interpolate", "blend"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let video = try #require(try Tool.json(r.stdout)["video"] as? [String: Any])
        #expect((video["cuts"] as? [Any])?.isEmpty == true, "\(video)")
        #expect(video["interpolatedFrames"] as? Int == 57)
        #expect(!r.stderr.contains("scene cut"), "\(r.stderr)")
    }
}
