import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `--fill-drops`: a capture's dropped frames (gaps of whole periods in a timestamps file, or in an
/// hfr-style recording's own times) made again, so the output runs at a constant rate; listed in
/// `--json`, tagged in the file and reported by `hfr probe`.
@Suite struct ExportFillDropsTests {
    let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory() }

    /// Every video packet's pts in ticks of the stream's time base, in presentation order.
    func ticks(_ path: String) throws -> [Int64] {
        try Tool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", path]
        ).stdout.split(separator: "\n").compactMap { Int64($0) }.sorted()
    }

    /// The export's `video.filledDrops`, and what `hfr probe` says of the output (text, JSON).
    func check(
        _ out: String, report: [String: Any], frames: Int, filled: String, count: Int, method: String
    ) throws {
        let video = report["video"] as? [String: Any] ?? [:]
        let fill = video["filledDrops"] as? [String: Any] ?? [:]
        #expect(fill["count"] as? Int == count && fill["droppedFrames"] as? Int == count, "\(fill)")
        #expect(fill["frames"] as? String == filled && fill["method"] as? String == method, "\(fill)")
        #expect(video["framesOut"] as? Int == frames && video["reencoded"] as? Bool == true)
        // A constant rate: as many packets as the report says, every step one frame period (to the
        // tick: Matroska's milliseconds round 1/30 s to 33 or 34).
        let t = try ticks(out)
        let steps = Set(zip(t, t.dropFirst()).map { $1 - $0 })
        #expect(t.count == frames && steps.max()! - steps.min()! <= 1, "\(t.count) frames, steps \(steps)")
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        let text = try Tool.hfr(["probe", out])
        #expect(
            text.stdout.contains("\(count) frames synthesized (filled drops) by \(method): output frames \(filled)"))
        let probed = try Tool.json(Tool.hfr(["probe", "--json", out]).stdout)
        // The new members are those docs/*-json.md list.
        try DocSchema(file: "export-json.md").check(report, "export --fill-drops")
        try DocSchema(file: "probe-json.md").check(probed, "probe of a --fill-drops export")
        let tag = (probed["video"] as? [String: Any])?["filledDrops"] as? [String: Any] ?? [:]
        #expect(tag["count"] as? Int == count && tag["frames"] as? String == filled, "\(tag)")
    }

    /// A raw H.264 stream of 120 frames at 120 fps whose timestamps file skips slots 20-22 and 70
    /// (the camera dropped them): `--conform 30` with the gaps filled is 124 frames at exactly
    /// 30 fps, the 4 made at output frames 20-22 and 70 (each drop where it was).
    @Test(arguments: ["repeat", "flow"])
    func fillsTheGapsOfATimestampsFile(method: String) throws {
        let mp4 = dir.path("source.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=120", "-frames:v", "120", "-c:v", "libx264", "-bf", "0",
            "-g", "60", mp4,
        ])
        let raw = dir.path("raw.h264")
        try ExportInputs.ffmpeg(["-i", mp4, "-c:v", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", raw])
        let slots = (0..<124).filter { ![20, 21, 22, 70].contains($0) }
        let pts = dir.path("pts.txt")
        try (["# timestamp format v2"] + slots.map { String(format: "%.3f", Double($0) * 1000 / 120) })
            .joined(separator: "\n").write(toFile: pts, atomically: true, encoding: .utf8)
        let out = dir.path("filled.mp4")
        let r = try Tool.hfr([
            "export", raw, out, "--timestamps", pts, "--conform", "30", "--fill-drops", method, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("4 filling 4 dropped (\(method))"), "\(r.stderr)")
        try check(out, report: try Tool.json(r.stdout), frames: 124, filled: "20-22,70", count: 4, method: method)
        #expect(try MediaChecks.entry(out, stream: "v:0", "avg_frame_rate") == "30/1")
    }

    /// Issue 41 item 12: a raw stream whose timestamps file (milliseconds, 3 decimals) misses 3 of
    /// 483 slots at 120 fps. Its last frame's time, 4016.667 ms, is stored as 4017 ms (the times'
    /// tick rounds it up), so the filled output ended a third of a millisecond late and one slot
    /// past the last captured frame came out: 484 frames. It is 483, repeat and flow alike.
    @Test func fillingEndsAtTheLastCapturedSlot() throws {
        let mp4 = dir.path("source.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-frames:v", "480", "-c:v", "libx264", "-bf", "0",
            "-g", "120", mp4,
        ])
        let raw = dir.path("raw.h264")
        try ExportInputs.ffmpeg(["-i", mp4, "-c:v", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", raw])
        let slots = (0..<483).filter { ![100, 200, 300].contains($0) }
        let pts = dir.path("pts.txt")
        try (["# timestamp format v2"] + slots.map { String(format: "%.3f", Double($0) * 1000 / 120) })
            .joined(separator: "\n").write(toFile: pts, atomically: true, encoding: .utf8)
        let out = dir.path("filled.mkv")
        let r = try Tool.hfr(["export", raw, out, "--timestamps", pts, "--conform", "30", "--fill-drops", "repeat"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: false) == 483, "\(r.stderr)")
        let plan = try Tool.hfr([
            "export", raw, dir.path("flow.mp4"), "--timestamps", pts, "--conform", "30", "--fill-drops", "flow",
            "--dry-run", "--json",
        ])
        let json = try Tool.json(plan.stdout)
        #expect(json["framesOut"] as? Int == 483 && json["filledDrops"] as? Int == 3, "\(plan.stdout)")
    }

    /// An hfr-style recording (tagged com.hfr.capture.fps 120) whose frames 30, 31 and 75 were
    /// dropped, their times left out: into Matroska at 30 fps the 3 are made; at --fps 60 only the
    /// slot that falls in a gap is (the dry run says so); --reencode never is refused (exit 64).
    @Test func fillsTheDropsOfATaggedRecording() throws {
        let input = dir.path("rec.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=120", "-t", "1", "-vf",
            "select='not(eq(n\\,30)+eq(n\\,31)+eq(n\\,75))'", "-fps_mode", "passthrough", "-c:v", "libx264", "-bf",
            "0", "-metadata", "com.hfr.capture.fps=120/1", "-movflags", "+use_metadata_tags", input,
        ])
        try #require(try FFprobe.count(input, stream: "v:0", decoding: false) == 117)
        let out = dir.path("filled.mkv")
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--fill-drops", "flow", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        try check(out, report: try Tool.json(r.stdout), frames: 120, filled: "30-31,75", count: 3, method: "flow")

        let plan = try Tool.hfr([
            "export", input, dir.path("fps60.mp4"), "--fps", "60", "--fill-drops", "repeat", "--dry-run", "--json",
        ])
        #expect(plan.status == 0, "\(plan.stderr)")
        let json = try Tool.json(plan.stdout)
        #expect(json["filledDrops"] as? Int == 1 && json["framesOut"] as? Int == 60, "\(plan.stdout)")
        try DocSchema(file: "export-json.md").member("plan").check(json, "export --dry-run --fill-drops")

        let never = try Tool.hfr([
            "export", input, dir.path("never.mp4"), "--conform", "30", "--fill-drops", "repeat", "--reencode", "never",
        ])
        #expect(never.status == 64 && never.stderr.contains("excludes --reencode never"), "\(never.stderr)")
    }
}
