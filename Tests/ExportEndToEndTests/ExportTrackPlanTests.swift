import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Issue 42 items 1 and 2: the plan lists every stream of the input (`plan.tracks`, one per stream
/// ffprobe lists, in input order) with what the export does with it, and leaves nothing out
/// silently. Twelve inputs made by ffmpeg and mkvmerge (160x120, 1 s at 60 fps) — a Matroska cover
/// picture and font attachment, two video tracks, an MP4 cover picture, a MOV timecode, SubRip and
/// ASS subtitles, several audio tracks — exported into Matroska at `--conform 30`: the file holds
/// what the plan writes, and every track dropped is named on stderr with its reason.
@Suite struct ExportTrackPlanTests {
    let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory() }

    /// The shared pieces: two videos, a cover picture, a tone, SubRip and ASS cues, a font file.
    func pieces() throws {
        for (name, source) in [("v.mp4", "testsrc"), ("v2.mp4", "testsrc2")] {
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i", "\(source)=s=160x120:r=60:d=1", "-c:v", "libx264", "-g", "60", dir.path(name),
            ])
        }
        try ExportInputs.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=160x120", "-frames:v", "1", dir.path("cover.jpg")])
        try ExportInputs.ffmpeg(["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", dir.path("a.m4a")])
        try "1\n00:00:00,100 --> 00:00:00,500\nhello\n".write(
            toFile: dir.path("s.srt"), atomically: true, encoding: .utf8)
        let ass = """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment, MarginL, MarginR, MarginV
            Style: Default,Arial,16,&Hffffff,0,0,2,10,10,10

            [Events]
            Format: Layer, Start, End, Style, Text
            Dialogue: 0,0:00:00.10,0:00:00.50,Default,hello

            """
        try ass.write(toFile: dir.path("s.ass"), atomically: true, encoding: .utf8)
        try Data((0..<200).map { UInt8($0 & 0xff) }).write(to: URL(fileURLWithPath: dir.path("font.ttf")))
    }

    /// The inputs, each made by one ffmpeg or mkvmerge run from the pieces.
    func inputs() throws -> [String] {
        try pieces()
        let p = dir.path
        let cover = ["--attachment-mime-type", "image/jpeg", "--attach-file", p("cover.jpg")]
        let font = ["--attachment-mime-type", "application/x-truetype-font", "--attach-file", p("font.ttf")]
        let mkvmerge: [(String, [String])] = [
            ("attached-cover.mkv", [p("v.mp4")] + cover),
            ("font.mkv", [p("v.mp4")] + font),
            ("everything.mkv", [p("v.mp4"), p("a.m4a"), p("s.srt")] + font + cover),
        ]
        for (name, arguments) in mkvmerge {
            let r = try Tool.run("mkvmerge", ["-q", "-o", p(name)] + arguments)
            #expect(r.status == 0, "\(name): \(r.stdout)")
        }
        let v = ["-i", p("v.mp4")]
        let ffmpeg: [(String, [String])] = [
            ("two-video.mkv", v + ["-i", p("v2.mp4"), "-map", "0:v", "-map", "1:v", "-c", "copy"]),
            ("two-video.mp4", v + ["-i", p("v2.mp4"), "-map", "0:v", "-map", "1:v", "-c", "copy"]),
            (
                "cover.mp4",
                v + ["-i", p("cover.jpg"), "-map", "0", "-map", "1", "-c", "copy", "-disposition:v:1", "attached_pic"]
            ),
            ("timecode.mov", v + ["-c", "copy", "-timecode", "01:00:00:00"]),
            (
                "srt-ass.mkv",
                v + ["-i", p("s.srt"), "-i", p("s.ass"), "-map", "0", "-map", "1", "-map", "2", "-c", "copy"]
            ),
            (
                "two-audio.mp4",
                v + ["-i", p("a.m4a"), "-i", p("a.m4a"), "-map", "0", "-map", "1", "-map", "2", "-c", "copy"]
            ),
            (
                "two-audio.ts",
                v + ["-i", p("a.m4a"), "-i", p("a.m4a"), "-map", "0", "-map", "1", "-map", "2", "-c", "copy"]
            ),
            (
                "mov-text.mp4",
                v + [
                    "-i", p("a.m4a"), "-i", p("s.srt"), "-map", "0", "-map", "1", "-map", "2", "-c:v", "copy", "-c:a",
                    "copy", "-c:s", "mov_text",
                ]
            ),
            ("pcm.mov", v + ["-i", p("a.m4a"), "-map", "0", "-map", "1", "-c:v", "copy", "-c:a", "pcm_s16le"]),
        ]
        for (name, arguments) in ffmpeg { try ExportInputs.ffmpeg(arguments + [p(name)]) }
        return (mkvmerge.map(\.0) + ffmpeg.map(\.0)).map(p)
    }

    /// ffprobe's streams of `path`: kind, whether an attached picture, and packets.
    static func streams(_ path: String) throws -> [(kind: String, picture: Bool, packets: Int)] {
        let r = try Tool.run("ffprobe", ["-v", "error", "-count_packets", "-show_streams", "-of", "json", path])
        let streams = try Tool.json(r.stdout)["streams"] as? [[String: Any]] ?? []
        return streams.map { s in
            let disposition = s["disposition"] as? [String: Any] ?? [:]
            let packets = Int(s["nb_read_packets"] as? String ?? "") ?? -1
            return (s["codec_type"] as? String ?? "?", disposition["attached_pic"] as? Int == 1, packets)
        }
    }

    /// Checks one plan against ffprobe's streams of `input`: one entry per stream in order, the
    /// kind ffprobe gives, a reason for each convert and drop, each drop named in `stderr`.
    static func check(_ tracks: [[String: Any]], input: String, stderr: String) throws {
        let probed = try streams(input)
        let name = URL(fileURLWithPath: input).lastPathComponent
        #expect(tracks.count == probed.count, "\(name): \(tracks)")
        #expect(tracks.compactMap { $0["input"] as? Int } == Array(probed.indices), "\(name): \(tracks)")
        for (t, s) in zip(tracks, probed) {
            #expect(t["kind"] as? String == s.kind, "\(name): \(t)")
            let action = t["action"] as? String ?? ""
            #expect(["copy", "retime", "convert", "drop"].contains(action), "\(name): \(t)")
            if action == "convert" || action == "drop" {
                #expect(!(t["reason"] as? String ?? "").isEmpty, "\(name): \(t)")
            }
            if action == "drop" {
                #expect(stderr.contains("track #\(t["input"] as? Int ?? -1) ("), "\(name): \(t) not in \(stderr)")
                #expect(t["output"] is NSNull, "\(name): \(t)")
            }
        }
    }

    @Test func everyInputStreamIsPlannedAndTheMatroskaFileHoldsWhatThePlanWrites() throws {
        let inputs = try inputs()
        #expect(inputs.count >= 12)
        for input in inputs {
            let name = URL(fileURLWithPath: input).lastPathComponent
            let out = dir.path("out-\(name).mkv")
            let r = try Tool.hfr(["export", input, out, "--conform", "30", "--json"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            guard r.status == 0 else { continue }
            let plan = try Tool.json(r.stdout)["plan"] as? [String: Any] ?? [:]
            let tracks = plan["tracks"] as? [[String: Any]] ?? []
            try ExportTrackPlanTests.check(tracks, input: input, stderr: r.stderr)
            // The file has exactly the streams the plan writes (a timecode becomes a tag).
            let written = tracks.filter { $0["output"] is Int }
            let probed = try ExportTrackPlanTests.streams(out)
            #expect(probed.count == written.count, "\(name): \(tracks)")
            // A second video track keeps every one of its 60 frames, retimed with the first.
            if name.hasPrefix("two-video") {
                #expect(probed.map(\.packets) == [60, 60], "\(name): \(probed)")
            }
            // What Matroska holds is kept: attachments, cover pictures, a second video, subtitles.
            if ["attached-cover.mkv", "font.mkv", "everything.mkv", "two-video.mkv", "cover.mp4", "srt-ass.mkv"]
                .contains(name)
            {
                #expect(!tracks.contains { $0["action"] as? String == "drop" }, "\(name): \(tracks)")
            }
        }
    }

    /// Into MP4, what it cannot hold is dropped with its reason, in `--json` and on stderr: a font
    /// attachment, a Matroska cover picture (MP4 keeps cover art among iTunes tags, which hfr's
    /// mdta tags replace), SubRip; a second video track is kept.
    @Test func intoMP4WhatItCannotHoldIsDroppedWithItsReason() throws {
        try pieces()
        let input = dir.path("mixed.mkv")
        let r0 = try Tool.run(
            "mkvmerge",
            [
                "-q", "-o", input, dir.path("v.mp4"), dir.path("v2.mp4"), dir.path("s.srt"), "--attachment-mime-type",
                "application/x-truetype-font", "--attach-file", dir.path("font.ttf"), "--attachment-mime-type",
                "image/jpeg", "--attach-file", dir.path("cover.jpg"),
            ])
        #expect(r0.status == 0, "\(r0.stdout)")
        let r = try Tool.hfr(["export", input, dir.path("o.mp4"), "--conform", "30", "--dry-run", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let tracks = try Tool.json(r.stdout)["tracks"] as? [[String: Any]] ?? []
        try ExportTrackPlanTests.check(tracks, input: input, stderr: r.stderr)
        let actions = tracks.map { $0["action"] as? String ?? "" }
        #expect(actions == ["retime", "retime", "drop", "drop", "drop"], "\(tracks)")
        let reasons = tracks.map { $0["reason"] as? String ?? "" }
        #expect(reasons.count == 5 && reasons[3].contains("attachments") && reasons[4].contains("cover art"))
    }
}
