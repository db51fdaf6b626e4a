import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// What a stream says about showing its pictures (rotation, colour, aspect ratio, HDR metadata) and
/// the tracks beside video and audio (timecode, subtitles) survive every kind of export, checked
/// with ffprobe against the input.
@Suite(.serialized) struct ExportSideDataTests {
    /// An hfr recording (120 fps, 3 temporal layers) stream-copied by ffmpeg into MP4 as a phone
    /// would write it: portrait (display matrix, rotation 90), HLG BT.2020 limited range, 4:3
    /// sample aspect ratio, and a `tmcd` timecode track starting at 01:00:00:00.
    static let portrait: Result<String, any Error> = Result {
        guard let dir = ExportInputs.directory else { throw CocoaError(.fileWriteUnknown) }
        let recording = dir.path("side-rec.mp4")
        let r = try Tool.hfr([
            "record", "--source", "test", "--fps", "120", "--size", "320x180", "--duration", "2",
            "--late-frames", "queue", recording,
        ])
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
        let path = dir.path("portrait-hlg-tc.mp4")
        try ExportInputs.ffmpeg([
            "-i", recording, "-map", "0", "-c", "copy", "-metadata:s:v", "rotate=90", "-aspect", "4:3",
            "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-color_range",
            "tv", "-timecode", "01:00:00:00", path,
        ])
        return path
    }

    /// ffprobe's view of the first video stream: colour tags, aspect ratio, rotation, HDR values.
    static func presentation(_ path: String) throws -> [String: String] {
        let r = try Tool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_streams", "-of", "json", path])
        let json = try Tool.json(r.stdout)
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        var out: [String: String] = [:]
        for key in ["color_primaries", "color_transfer", "color_space", "color_range", "sample_aspect_ratio"] {
            out[key] = stream[key].map { "\($0)" }
        }
        for side in stream["side_data_list"] as? [[String: Any]] ?? [] {
            for (key, value) in side where key != "side_data_type" && key != "displaymatrix" {
                // Rationals differ in form by container ("35400/50000" in MP4, 2^-n in Matroska).
                out[key] = ExportSideDataTests.number("\(value)").map { String(format: "%.4f", $0) } ?? "\(value)"
            }
        }
        return out
    }

    static func number(_ text: String) -> Double? {
        let parts = text.split(separator: "/").compactMap { Double($0) }
        return parts.count == 2 ? parts[0] / parts[1] : parts.count == 1 ? parts[0] : nil
    }

    /// The timecode track(s): start timecode (as numbers, whatever the frame digits) and duration.
    static func timecode(_ path: String) throws -> (start: [Int], duration: Double)? {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "d", "-show_entries",
                "stream=codec_tag_string,duration:stream_tags=timecode",
                "-of", "json", path,
            ])
        let streams = try Tool.json(r.stdout)["streams"] as? [[String: Any]] ?? []
        guard let tmcd = streams.first(where: { $0["codec_tag_string"] as? String == "tmcd" }),
            let value = (tmcd["tags"] as? [String: String])?["timecode"],
            let duration = Double(tmcd["duration"] as? String ?? "")
        else { return nil }
        return (value.split(whereSeparator: { $0 == ":" || $0 == ";" }).compactMap { Int($0) }, duration)
    }

    @Test func portraitHLGAndTimecodeSurviveConformLayerDropAndReencode() throws {
        let input = try Self.portrait.get()
        let dir = try TemporaryDirectory()
        let source = try Self.presentation(input)
        #expect(source["rotation"] == "90.0000" && source["color_transfer"] == "arib-std-b67", "\(source)")
        #expect(source["sample_aspect_ratio"] == "3:4")
        let probe = try Tool.hfr(["probe", input])
        #expect(probe.stdout.contains("bt2020/arib-std-b67/bt2020nc tv, rotation 270° clockwise"), "\(probe.stdout)")
        let sourceTimecode = try #require(try Self.timecode(input))
        #expect(sourceTimecode.start == [1, 0, 0, 0])
        let cases: [(String, [String], Double)] = [
            ("conform.mp4", ["--conform", "30"], 4), ("conform.mov", ["--conform", "30"], 4),
            ("kernel.mp4", ["--conform", "30", "--audio", "mute", "--json"], 4),
            ("fps60.mp4", ["--fps", "60"], 1), ("reencode.mp4", ["--fps", "30", "--reencode", "always"], 1),
            ("reencode.mov", ["--fps", "30", "--reencode", "always"], 1),
        ]
        for (name, options, stretch) in cases {
            let out = dir.path(name)
            let r = try Tool.hfr(["export", input, out] + options)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            if name == "kernel.mp4" {
                #expect((try Tool.json(r.stdout)["video"] as? [String: Any])?["kernelCopy"] as? Bool == true)
            }
            var expected = source
            // MOV's `colr` (nclc) has no range flag: a stream copy of a VUI without one cannot keep it.
            if name == "conform.mov" { expected["color_range"] = nil }
            let got = try Self.presentation(out)
            #expect(got == expected, "\(name): \(got.filter { expected[$0.key] != $0.value })")
            let timecode = try #require(try Self.timecode(out), "\(name): no timecode track")
            #expect(timecode.start == sourceTimecode.start, "\(name)")
            #expect(abs(timecode.duration - sourceTimecode.duration * stretch) < 0.05, "\(name): \(timecode.duration)")
        }
        // A range starting 0.5 s in starts the timecode 0.5 s (15 frames at 30 fps) later.
        let range = dir.path("range.mp4")
        #expect(try Tool.hfr(["export", input, range, "--range", "0.5-1.5", "--conform", "30"]).status == 0)
        #expect(try Self.presentation(range) == source)
        #expect(try Self.timecode(range)?.start == [1, 0, 0, 15])
        // Matroska keeps the timecode as the video's tag; an export of that starts from it again.
        let matroska = dir.path("conform.mkv")
        #expect(try Tool.hfr(["export", input, matroska, "--conform", "30"]).status == 0)
        let again = dir.path("again.mp4")
        #expect(try Tool.hfr(["export", matroska, again, "--conform", "30"]).status == 0)
        #expect(try Self.timecode(again)?.start == [1, 0, 0, 0])
        let layers = try MediaChecks.packets(dir.path("fps60.mp4")).count
        #expect(layers == 120)
        let conformed = try MediaChecks.codedPictures(dir.path("conform.mp4")).map(\.hash)
        let captured = try MediaChecks.codedPictures(input).map(\.hash)
        #expect(
            conformed == captured,
            "\(conformed.count) vs \(captured.count) pictures, first: \(conformed.first ?? "") \(captured.first ?? "")")
        #expect(try MediaChecks.decodeErrors(dir.path("reencode.mp4")).isEmpty)
    }

    /// Mastering display and content light level, as mkvmerge writes them into Matroska's Colour
    /// element; MP4 and MOV outputs carry them as `mdcv`/`clli`, Matroska as Colour again.
    @Test func masteringDisplayAndLightLevelSurviveEveryContainer() throws {
        let dir = try TemporaryDirectory()
        let coded = dir.path("hlg.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=120:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", coded,
        ])
        let input = dir.path("hdr.mkv")
        let made = try Tool.run(
            "mkvmerge",
            [
                "-q", "-o", input, "--max-content-light", "0:1000", "--max-frame-light", "0:400", "--max-luminance",
                "0:1000", "--min-luminance", "0:0.005", "--chromaticity-coordinates",
                "0:0.708,0.292,0.170,0.797,0.131,0.046", "--white-colour-coordinates", "0:0.3127,0.3290", coded,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let source = try Self.presentation(input)
        #expect(source["max_content"] == "1000.0000" && source["max_luminance"] == "1000.0000", "\(source)")
        for (name, options) in [
            ("c.mp4", ["--conform", "30"]), ("c.mov", ["--conform", "30"]), ("c.mkv", ["--conform", "30"]),
            ("r.mp4", ["--fps", "60", "--reencode", "always"]),
        ] {
            let out = dir.path(name)
            let r = try Tool.hfr(["export", input, out] + options)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            var got = try Self.presentation(out)
            if name == "c.mov" { got["color_range"] = source["color_range"] }
            #expect(got == source, "\(name)")
        }
    }

    /// A subtitle track MP4 can store (mov_text) is kept and retimed with the video; one it cannot
    /// (SubRip) is left out with a note on stderr and in `--json`, exit 0; the rotation goes into
    /// Matroska as a `Projection` roll (FFmpeg reads it back as the same display matrix), no note.
    @Test func subtitlesAreRetimedOrLeftOutWithANote() throws {
        let input = try Self.portrait.get()
        let dir = try TemporaryDirectory()
        let srt = dir.path("s.srt")
        try "1\n00:00:00,100 --> 00:00:00,900\nHello\n\n2\n00:00:01,000 --> 00:00:01,800\nWorld\n".write(
            toFile: srt, atomically: true, encoding: .utf8)
        let movText = dir.path("sub.mp4")
        let subrip = dir.path("sub.mkv")
        let common = [
            "-i", input, "-i", srt, "-map", "0:v", "-map", "1", "-c:v", "copy", "-metadata:s:s", "language=fra",
        ]
        try ExportInputs.ffmpeg(common + ["-c:s", "mov_text", movText])
        try ExportInputs.ffmpeg(common + ["-c:s", "srt", subrip])

        let kept = dir.path("kept.mp4")
        let r = try Tool.hfr(["export", movText, kept, "--conform", "30"])
        #expect(r.status == 0, "\(r.stderr)")
        func cues(_ path: String) throws -> [String] {
            try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:s", "-f", "srt", "-"]).stdout
                .split(separator: "\n").filter { $0.contains("-->") }.map(String.init)
        }
        #expect(try cues(kept) == ["00:00:00,400 --> 00:00:03,600", "00:00:04,000 --> 00:00:07,200"])
        #expect(try MediaChecks.entry(kept, stream: "s:0", "codec_name") == "mov_text")

        let dropped = dir.path("dropped.mp4")
        let d = try Tool.hfr(["export", subrip, dropped, "--conform", "30", "--json"])
        #expect(d.status == 0, "\(d.stderr)")
        let note = "subtitle track #1 (subrip) is left out: MP4 cannot store it"
        #expect(d.stderr.contains("Note: \(note)"))
        #expect((try Tool.json(d.stdout)["notes"] as? [String])?.contains(note) == true)

        let matroska = try Tool.hfr(["export", subrip, dir.path("kept.mkv"), "--conform", "30"])
        #expect(matroska.status == 0)
        #expect(try cues(dir.path("kept.mkv")) == ["00:00:00,400 --> 00:00:03,600", "00:00:04,000 --> 00:00:07,200"])
        let portrait = try Tool.hfr(["export", input, dir.path("portrait.mkv"), "--conform", "30"])
        #expect(portrait.status == 0)
        #expect(!portrait.stderr.contains("display matrix"), "\(portrait.stderr)")
        #expect(try Self.presentation(dir.path("portrait.mkv"))["rotation"] == "90.0000")
    }
}
