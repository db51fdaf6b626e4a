import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Inputs that already play slower than they were captured: source time is real time, so a stream
/// playing at P fps with capture rate C is read at P/C real seconds per stream second.
@Suite(.serialized) struct ExportSlowedInputTests {
    /// An Android slow-motion recording as MediaRecorder writes it: a constant-rate stream playing at
    /// `playback` fps, tagged with the capture rate in `com.android.capture.fps` — as float32 (type
    /// 23, MediaMuxer's form) when `float`, else as the decimal text other tools write.
    static func androidStyle(
        playback: Int, capture: Int, seconds: Int, in dir: TemporaryDirectory, name: String, float: Bool = false
    ) throws -> String {
        let plain = dir.path("plain-\(name)")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=\(playback):d=\(seconds)", "-c:v", "libx264", "-bf", "0",
            "-g", "\(playback)", "-pix_fmt", "yuv420p", plain,
        ])
        let tagged = dir.path(name)
        try ExportInputs.ffmpeg([
            "-i", plain, "-c", "copy", "-metadata",
            "com.android.capture.fps=\(float ? "@@@@" : "\(capture).000000")", "-movflags", "+use_metadata_tags",
            tagged,
        ])
        guard float else { return tagged }
        // FFmpeg writes text (type 1): turn the 4-byte placeholder's `data` atom into a float32.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: tagged))
        let text: [UInt8] = Array("data".utf8) + [0, 0, 0, 1, 0, 0, 0, 0] + Array("@@@@".utf8)
        let at = try #require(bytes.range(of: Data(text)))
        let value = Float(capture).bitPattern
        let bigEndian = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        let float32: [UInt8] = Array("data".utf8) + [0, 0, 0, 23, 0, 0, 0, 0] + bigEndian
        bytes.replaceSubrange(at, with: float32)
        try bytes.write(to: URL(fileURLWithPath: tagged))
        #expect(try ExifTool.item("AndroidCaptureFps", in: tagged)?.type == "Flags=0x17 (float)")
        return tagged
    }

    static func slowMotion(_ path: String) throws -> String? {
        let probe = try Tool.json(try Tool.hfr(["probe", "--json", path]).stdout)
        return (probe["video"] as? [String: Any])?["slowMotionFactor"] as? String
    }

    @Test(arguments: [true, false]) func androidSlowMotionFileIsTimedInRealTime(float: Bool) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.androidStyle(
            playback: 30, capture: 120, seconds: 4, in: dir, name: "android.mp4", float: float)
        #expect(try Self.slowMotion(input) == "4/1")

        // --conform 30: every frame at exactly 1/30 s, the same length it already plays.
        let conform = dir.path("conform30.mp4")
        let c = try Tool.hfr(["export", input, conform, "--conform", "30"])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(try MediaChecks.packets(conform).map(\.hash) == MediaChecks.packets(input).map(\.hash))
        #expect(try MediaChecks.entry(conform, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(try MediaChecks.entry(conform, stream: "v:0", "avg_frame_rate") == "30/1")
        #expect(abs(try MediaChecks.duration(conform, stream: "v:0") - 4) < 0.001)

        // --fps 30: real time at 30 fps, 1 frame in 4, a quarter of the length.
        let fps = dir.path("fps30.mp4")
        let f = try Tool.hfr(["export", input, fps, "--fps", "30"])
        #expect(f.status == 0, "\(f.stderr)")
        #expect(try FFprobe.count(fps, stream: "v:0", decoding: true) == 30)
        #expect(try MediaChecks.entry(fps, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(abs(try MediaChecks.duration(fps, stream: "v:0") - 1) < 0.001)
        #expect(try MediaChecks.decodeErrors(fps).isEmpty)

        // --conform 60: twice as fast as the input plays.
        let fast = dir.path("conform60.mp4")
        #expect(try Tool.hfr(["export", input, fast, "--conform", "60"]).status == 0)
        #expect(try MediaChecks.packets(fast).map(\.hash) == MediaChecks.packets(input).map(\.hash))
        #expect(try MediaChecks.entry(fast, stream: "v:0", "r_frame_rate") == "60/1")
        #expect(abs(try MediaChecks.duration(fast, stream: "v:0") - 2) < 0.001)
    }

    /// A 120 fps-playing file tagged 240 (2× slow motion): a conform to 30 plays at 30, not 15.
    @Test func twiceSlowedFileConformsToTheAskedRate() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.androidStyle(playback: 120, capture: 240, seconds: 2, in: dir, name: "x2.mp4")
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 8) < 0.001)
        let json = try Tool.json(r.stdout)
        #expect(json["outputFrameRate"] as? String == "30/1")
        #expect(json["inputDuration"] as? Double == 1)
    }

    /// A time-lapse (a 30 fps stream captured at 1 frame a second, as Android tags it): a conform to
    /// 30 shows every frame for 1/30 s — the length it already plays — not 30× faster still.
    @Test func timeLapseFileConformsToTheAskedRate() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.androidStyle(playback: 30, capture: 1, seconds: 4, in: dir, name: "lapse.mp4")
        #expect(try Self.slowMotion(input) == "1/30")
        for (rate, seconds) in [(30, 4.0), (60, 2.0)] {
            let out = dir.path("conform\(rate).mp4")
            let r = try Tool.hfr(["export", input, out, "--conform", "\(rate)"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try MediaChecks.packets(out).map(\.hash) == MediaChecks.packets(input).map(\.hash))
            #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "\(rate)/1")
            #expect(abs(try MediaChecks.duration(out, stream: "v:0") - seconds) < 0.001)
        }
    }

    /// An export exported again with the same options is the same file: hfr's own 4× conform,
    /// conformed to 30 again, keeps every packet (video and audio) and its length.
    @Test func reexportingAConformIsIdempotent() throws {
        let dir = try TemporaryDirectory()
        let first = dir.path("first.mp4")
        let second = dir.path("second.mp4")
        #expect(try Tool.hfr(["export", try ExportInputs.sixSeconds.get(), first, "--conform", "30"]).status == 0)
        let r = try Tool.hfr(["export", first, second, "--conform", "30", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        for stream in ["v:0", "a:0"] {
            let a = try MediaChecks.packets(first, stream: stream)
            let b = try MediaChecks.packets(second, stream: stream)
            #expect(a.count > 100)
            #expect(a.map(\.hash) == b.map(\.hash))
            #expect(a.map(\.time) == b.map(\.time))
        }
        #expect(abs(try MediaChecks.duration(second, stream: "v:0") - 24) < 0.001)
        #expect(try Self.slowMotion(first) == "4/1")
        #expect(try Self.slowMotion(second) == "4/1")
        // The real-time rate of the slowed export is its capture rate: --fps 30 drops 3 of 4.
        let realTime = dir.path("fps30.mp4")
        #expect(try Tool.hfr(["export", first, realTime, "--fps", "30"]).status == 0)
        #expect(try FFprobe.count(realTime, stream: "v:0", decoding: false) == 180)
        #expect(abs(try MediaChecks.duration(realTime, stream: "v:0") - 6) < 0.001)
    }

    /// A phone's variable-rate slow-motion clip: frames 1/24 and 1/40 s apart in turn (about 30 fps)
    /// tagged 120. libavformat's base rate is then the finest step of the timestamps (120), so the
    /// stream's average says how fast it plays; a conform keeps the gaps, scaled (this was a 20 s
    /// file refused as corrupt: the base rate made it look like real time).
    @Test func variableRateAndroidClipConformsByItsAverageRate() throws {
        let dir = try TemporaryDirectory()
        let raw = dir.path("raw.h264")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p",
            "-f", "h264", raw,
        ])
        var times = "# timestamp format v2\n"
        for n in 0..<60 { times += String(format: "%.3f\n", Double(n / 2) * 65 + (n % 2 == 1 ? 41.667 : 0)) }
        try times.write(toFile: dir.path("ts.txt"), atomically: true, encoding: .utf8)
        let mkv = dir.path("vfr.mkv")
        let m = try Tool.run("mkvmerge", ["-q", "-o", mkv, "--timestamps", "0:" + dir.path("ts.txt"), raw])
        #expect(m.status == 0, "\(m.stdout)")
        let input = dir.path("vfr.mp4")
        try ExportInputs.ffmpeg([
            "-i", mkv, "-c", "copy", "-metadata", "com.android.capture.fps=120", "-movflags", "+use_metadata_tags",
            input,
        ])
        // The premise: the base rate is far above the average (about 31).
        let base = try MediaChecks.entry(input, stream: "v:0", "r_frame_rate").split(separator: "/").map { Double($0)! }
        #expect(base[0] / base[1] >= 40, "r_frame_rate \(base)")
        let out = dir.path("conform.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "12"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try MediaChecks.codedPictures(out).map(\.hash) == MediaChecks.codedPictures(input).map(\.hash))
        // 60 frames of a 120 fps capture: 0.5 s of real time, 5 s at 12 fps.
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 5) < 0.01)
        let inTimes = try MediaChecks.packets(input).map(\.time)
        let outTimes = try MediaChecks.packets(out).map(\.time)
        let scale = outTimes[2] / inTimes[2]
        for (a, b) in zip(inTimes, outTimes) { #expect(abs(a * scale - b) < 0.002, "\(a) → \(b)") }
    }
}
