import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Files hfr did not make: each is exported correctly (checked with ffprobe/ffmpeg) or refused with
/// a reason.
@Suite(.serialized) struct ExportForeignInputTests {
    func export(_ input: String, _ out: String, _ options: [String]) throws -> ToolResult {
        try Tool.hfr(["export", input, out] + options)
    }

    @Test func x264WithBFramesConformsLosslesslyAndReencodesDecimation() throws {
        let dir = try TemporaryDirectory()
        let input = Fixtures.path("x264-bframes.mp4")
        let out = dir.path("conform.mp4")
        let r = try export(input, out, ["--conform", "15"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try MediaChecks.packets(out).map(\.hash) == MediaChecks.packets(input).map(\.hash))
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 60)
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 4) < 0.001)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)

        let refused = try export(input, dir.path("never.mp4"), ["--fps", "15", "--reencode", "never"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("1 frame in 2"), "stderr: \(refused.stderr)")
        let decimated = dir.path("fps15.mp4")
        #expect(try export(input, decimated, ["--fps", "15"]).status == 0)
        #expect(try FFprobe.count(decimated, stream: "v:0", decoding: true) == 30)
        #expect(try MediaChecks.entry(decimated, stream: "v:0", "r_frame_rate") == "15/1")
        #expect(try MediaChecks.decodeErrors(decimated).isEmpty)
        #expect(try dir.contents() == ["conform.mp4", "fps15.mp4"])
    }

    /// The kernel-copy conform on files other tools wrote: an FFmpeg stream copy into MP4 with the
    /// index first (faststart) and into MOV take it, with the packets the reading conform gives;
    /// B-frames (composition offsets) and an edit list that hides frames are read instead.
    @Test(arguments: [
        ("faststart.mp4", ["-movflags", "+faststart"], true), ("copy.mov", [], true),
        ("bframes.mp4", [], false), ("cut.mp4", ["-ss", "0.5"], false),
    ])
    func kernelCopyOnOtherMuxersFiles(name: String, options: [String], kernel: Bool) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path(name)
        let source = Fixtures.path(name == "bframes.mp4" ? "x264-bframes.mp4" : "layered-120fps.mp4")
        let seek = options.first == "-ss" ? options : []
        try ExportInputs.ffmpeg(seek + ["-i", source, "-c", "copy"] + (seek.isEmpty ? options : []) + [input])
        let whole = try export(input, dir.path("whole.mp4"), ["--conform", "15", "--audio", "time-domain", "--json"])
        let ranged = try export(
            input, dir.path("ranged.mp4"), ["--conform", "15", "--audio", "time-domain", "--range", "0-"])
        #expect(whole.status == 0 && ranged.status == 0, "\(whole.stderr) \(ranged.stderr)")
        #expect((try Tool.json(whole.stdout)["video"] as? [String: Any])?["kernelCopy"] as? Bool == kernel)
        #expect(
            try MediaChecks.packets(dir.path("whole.mp4")).map(\.hash)
                == MediaChecks.packets(dir.path("ranged.mp4")).map(\.hash))
        #expect(try MediaChecks.packets(dir.path("whole.mp4")).count > 50)
        #expect(try MediaChecks.decodeErrors(dir.path("whole.mp4")).isEmpty)
    }

    @Test func phoneStyle60fpsWithoutLayers() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("phone.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=60", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
            "-t", "2", "-c:v", "libx264", "-bf", "0", "-preset", "veryfast", "-c:a", "aac", "-metadata",
            "com.android.capture.fps=60.000000", "-movflags", "+use_metadata_tags", input,
        ])
        let conform = dir.path("conform.mp4")
        let r = try export(input, conform, ["--conform", "30", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try Tool.json(r.stdout)["captureFrameRateSource"] as? String == "com.android.capture.fps")
        #expect(try FFprobe.count(conform, stream: "v:0", decoding: true) == 120)
        #expect(abs(try MediaChecks.duration(conform, stream: "v:0") - 4) < 0.001)
        #expect(try MediaChecks.codedPictures(conform).map(\.hash) == MediaChecks.codedPictures(input).map(\.hash))

        let refused = try export(input, dir.path("never.mp4"), ["--fps", "30", "--reencode", "never"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("no droppable layers"), "stderr: \(refused.stderr)")
        let decimated = dir.path("fps30.mp4")
        #expect(try export(input, decimated, ["--fps", "30"]).status == 0)
        #expect(try FFprobe.count(decimated, stream: "v:0", decoding: true) == 60)
        #expect(try MediaChecks.decodeErrors(decimated).isEmpty)
    }

    @Test func matroskaWithTwoLayersHalvesLosslessly() throws {
        let dir = try TemporaryDirectory()
        let input = Fixtures.path("layered-60fps-2layers.mkv")
        let out = dir.path("out.mkv")
        let r = try export(input, out, ["--fps", "30", "--reencode", "never"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 30)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        let tids = try PrefixNALReader.temporalIDs(of: input)
        let kept = zip(try MediaChecks.codedPictures(input), tids).filter { $0.1 == 0 }.map(\.0.hash)
        #expect(try MediaChecks.codedPictures(out).map(\.hash) == kept)
    }

    @Test func editListHidesTheFramesBeforeIt() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("edit-list.mp4")
        // A stream-copied cut at 0.5 s: decoding starts at the keyframe at 0, an edit list hides 0.5 s.
        try ExportInputs.ffmpeg([
            "-ss", "0.5", "-i", Fixtures.path("layered-120fps.mp4"), "-c", "copy", "-map_metadata", "0", "-movflags",
            "+use_metadata_tags", input,
        ])
        #expect(try FFprobe.count(input, stream: "v:0", decoding: true) == 180)
        let out = dir.path("out.mp4")
        let r = try export(input, out, ["--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 180)
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 6) < 0.001)
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 6) <= 1024.0 / 48000)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    @Test func variableFrameRateConformsWithItsTimingAndSaysSo() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("vfr.mp4")
        // 30 fps with every 5th frame removed and the gaps kept: 48 frames over 2 s.
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2", "-vf", "select='not(eq(mod(n\\,5)\\,3))'",
            "-fps_mode", "vfr", "-c:v", "libx264", "-bf", "0", "-preset", "veryfast", input,
        ])
        let out = dir.path("conform.mp4")
        let r = try export(input, out, ["--conform", "12"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("variable frame rate"), "stderr: \(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 48)
        // Each frame keeps its own timing, scaled by the same factor: gaps stay where they were.
        let source = try MediaChecks.packets(input).map(\.time)
        let exported = try MediaChecks.packets(out).map(\.time)
        let factor = exported.last! / source.last!
        #expect(zip(exported, source).allSatisfy { abs($0 - $1 * factor) < 0.001 })
        let fixed = dir.path("fps12.mp4")
        let refused = try export(input, fixed, ["--fps", "12", "--reencode", "never"])
        #expect(refused.status == 65)
        #expect(try export(input, fixed, ["--fps", "12"]).status == 0)
        #expect(try MediaChecks.entry(fixed, stream: "v:0", "r_frame_rate") == "12/1")
        #expect(try FFprobe.count(fixed, stream: "v:0", decoding: true) == 24)
    }
}
