import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// A Samsung slow-motion (SEF) file built from the documented layout around a real 6 s 120 fps
/// recording with 3 temporal layers: `smta`/`saut` (mode 13: 120 fps, 3 layers) in `moov/udta`,
/// the movie box last as phones write it, and a SEF trailer whose `SlowMotion_Data` asks for
/// 1.0–2.0 s and 3.0–3.5 s at a quarter of normal speed (mode 3).
@Suite(.serialized) struct SamsungSlowMotionTests {
    static let segments = [SEFFile.Segment(start: 1000, end: 2000, mode: 3), .init(start: 3000, end: 3500, mode: 3)]

    /// Output time of source time `t` as the phone plays it, computed here: real time outside the
    /// segments, 4× slower inside.
    static func phoneTime(_ t: Double) -> Double {
        var out = 0.0
        var at = 0.0
        for (start, end) in [(1.0, 2.0), (3.0, 3.5)] {
            if t <= start { return out + (t - at) }
            out += start - at
            if t < end { return out + 4 * (t - start) }
            out += 4 * (end - start)
            at = end
        }
        return out + (t - at)
    }

    /// The SEF file around `source` (default: the 6 s recording, which plays at its capture rate).
    static func sefFile(
        in dir: TemporaryDirectory, source: String? = nil, trailer: [UInt8]? = nil
    ) throws -> String {
        let late = dir.path("moov-last.mp4")
        try ExportInputs.ffmpeg([
            "-i", try source ?? ExportInputs.sixSeconds.get(), "-map", "0", "-c", "copy", "-map_metadata",
            source == nil ? "0" : "-1", "-movflags", "+use_metadata_tags", late,
        ])
        let path = dir.path("sef.mp4")
        try SEFFile.write(
            from: late, to: path, smta: SEFFile.smta(mode: 13, layers: 3),
            trailer: trailer ?? SEFFile.trailer([(0x0890, SEFFile.slowMotionData(segments))]))
        return path
    }

    @Test func probeListsTheRecordedSegments() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.sefFile(in: dir)
        let r = try Tool.hfr(["probe", "--json", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let sef = try Tool.json(r.stdout)["samsungSlowMotion"] as? [String: Any] ?? [:]
        #expect(sef["captureFrameRate"] as? Int == 120)
        #expect(sef["temporalLayerCount"] as? Int == 3)
        let listed = (sef["slowMotionSegments"] as? [[String: Any]] ?? []).map {
            "\($0["start"] as? Double ?? -1)-\($0["end"] as? Double ?? -1)@\($0["speed"] as? String ?? "")"
        }
        #expect(listed == ["1.0-2.0@1/4", "3.0-3.5@1/4"])
        let text = try Tool.hfr(["probe", path]).stdout
        #expect(text.contains("Samsung slow motion (SEF): captured at 120 fps, 3 temporal layers"))
        #expect(text.contains("1.000-2.000 s at 1/4 speed"))
        // Other tools read the file as before: FFmpeg ignores the trailer.
        #expect(try MediaChecks.decodeErrors(path).isEmpty)
    }

    /// hfr reads the boxes up to the trailer too: a conform is a kernel copy of every packet.
    @Test func conformCopiesEveryPacket() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.sefFile(in: dir)
        let out = dir.path("conform.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let video = try Tool.json(r.stdout)["video"] as? [String: Any] ?? [:]
        #expect(video["kernelCopy"] as? Bool == true)
        #expect(try MediaChecks.codedPictures(out).map(\.hash) == MediaChecks.codedPictures(input).map(\.hash))
        #expect(try MediaChecks.entry(out, stream: "v:0", "avg_frame_rate") == "30/1")
    }

    /// As a phone stores it: a stream that plays at 30 fps, captured at 120 as only `smta` says.
    @Test func smtaDeclaresTheCaptureRate() throws {
        let dir = try TemporaryDirectory()
        let conformed = dir.path("conformed.mp4")
        let r = try Tool.hfr(["export", try ExportInputs.sixSeconds.get(), conformed, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let path = try Self.sefFile(in: dir, source: conformed)
        let tags = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", path]).stdout
        #expect(!tags.contains("capture.fps"))
        let video = try Tool.json(try Tool.hfr(["probe", "--json", path]).stdout)["video"] as? [String: Any] ?? [:]
        #expect(video["captureFrameRate"] as? String == "120/1")
        #expect(video["captureFrameRateSource"] as? String == "smta")
        #expect(video["playbackFrameRate"] as? String == "30/1")
        #expect(video["slowMotionFactor"] as? String == "4/1")
    }

    /// `--ramp auto` at its default rate (capture × slowest speed = 30 fps): outside the segments
    /// only layer 0 in real time, inside every frame 4× slower; the kept packets byte for byte.
    @Test func rampAutoGivesThePhonesTiming() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.sefFile(in: dir)
        let out = dir.path("auto.mp4")
        let r = try Tool.hfr(["export", input, out, "--ramp", "auto", "--reencode", "never", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try Tool.json(r.stdout)["timeMap"] as? String == "0-1@1,1-2@1/4,2-3@1,3-3.5@1/4,3.5-@1")
        #expect(r.stderr.contains("Note: --ramp auto: the recorded slow-motion segments give 0-1@1,1-2@1/4"))
        // 1 + 4 + 1 + 2 + 2.5 seconds.
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 10.5) < 0.0005)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        let tids = try PrefixNALReader.temporalIDs(of: input)
        let source = try MediaChecks.codedPictures(input)
        func slowed(_ t: Double) -> Bool { (t >= 1 && t < 2) || (t >= 3 && t < 3.5) }
        let expected = zip(source, tids).filter { slowed($0.0.time) || $0.1 == 0 }.map(\.0)
        let exported = try MediaChecks.codedPictures(out)
        #expect(exported.count == 30 + 120 + 30 + 60 + 75)
        #expect(exported.map(\.hash) == expected.map(\.hash))
        for (o, s) in zip(exported, expected) where abs(o.time - Self.phoneTime(s.time)) > 1e-5 {
            Issue.record("source frame at \(s.time) s came out at \(o.time) s, expected \(Self.phoneTime(s.time)) s")
            break
        }
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == exported.count)
    }

    /// A phone's own layout: the stream plays at 30 fps (captured at 120, as only `smta` says), and
    /// the segment's times are stream times: 4.0–8.0 s of the stream is 1.0–2.0 s of real time. The
    /// phone's timing is then 1 s real time, 4 s slowed, 4 s real time.
    @Test func rampAutoOnASlowedStreamIsTimedInRealTime() throws {
        let dir = try TemporaryDirectory()
        let conformed = dir.path("conformed.mp4")
        #expect(try Tool.hfr(["export", try ExportInputs.sixSeconds.get(), conformed, "--conform", "30"]).status == 0)
        let input = try Self.sefFile(
            in: dir, source: conformed,
            trailer: SEFFile.trailer([
                (0x0890, SEFFile.slowMotionData([SEFFile.Segment(start: 4000, end: 8000, mode: 3)]))
            ]))
        let out = dir.path("auto.mp4")
        let r = try Tool.hfr(["export", input, out, "--ramp", "auto", "--reencode", "never", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try Tool.json(r.stdout)["timeMap"] as? String == "0-1@1,1-2@1/4,2-@1")
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 9) < 0.0005)
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 30 + 120 + 120)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// Without recorded segments (or with a broken trailer) `--ramp auto` is refused, nothing written.
    @Test(arguments: [false, true]) func rampAutoNeedsRecordedSegments(brokenTrailer: Bool) throws {
        let dir = try TemporaryDirectory()
        let input =
            brokenTrailer
            ? try Self.sefFile(in: dir, trailer: Array("SEFHxxxxyyyy".utf8) + [4, 0, 0, 0] + Array("SEFT".utf8))
            : try ExportInputs.sixSeconds.get()
        let out = dir.path("auto.mp4")
        let r = try Tool.hfr(["export", input, out, "--ramp", "auto"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("--ramp auto"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try dir.contents().allSatisfy { !$0.hasPrefix(".auto") })
    }
}
