import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `export --dry-run` prints the plan and writes nothing; the real export then writes exactly the
/// frames, tracks and lengths the plan said (ffprobe counts the packets and reads the durations),
/// and reports the same plan. 16 inputs: hfr recordings and other tools' files.
@Suite(.serialized) struct ExportDryRunTests {
    /// One export of the 6 s 120 fps layered recording (or `input`), into `ext`.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        var ext = "mp4"
        var testDescription: String { name }
    }

    static let recordingCases: [Case] = [
        Case(name: "conform", arguments: ["--conform", "30"]),
        Case(name: "decimation to 60", arguments: ["--fps", "60"]),
        Case(name: "decimation to 30", arguments: ["--fps", "30"]),
        Case(name: "ramp", arguments: ["--ramp", "0-2@1,2-4@0.25,4-@1"]),
        Case(name: "ramp into MKV", arguments: ["--ramp", "0-1.3@1,1.3-2.7@0.25,2.7-@1"], ext: "mkv"),
        Case(name: "re-encode", arguments: ["--fps", "40"]),
        Case(name: "range cut under an edit list", arguments: ["--conform", "30", "--range", "1.3-4.6"]),
        // The cut falls inside a kept frame, which the edit list shows in part (this was refused as
        // "corrupt timestamps": the file's length was checked against whole frames only).
        Case(name: "decimation cut between frames", arguments: ["--fps", "30", "--range", "0.51-2.2"]),
        // Real time copied, a tenth re-encoded in between (blended: cheap new pictures).
        Case(name: "splice", arguments: ["--ramp", "0-1@1,1-1.3@0.1,1.3-@1", "--fps", "30", "--interpolate", "blend"]),
    ]

    @Test(arguments: recordingCases) func planEqualsTheWrittenFile(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        let plan = try Self.compare(input: ExportInputs.sixSeconds.get(), c, in: dir)
        let segments = plan["segments"] as? [[String: Any]] ?? []
        switch c.name {
        case "ramp":
            // 2 s real time (layer 0 of 3: 1 in 4), 2 s at 1/4 (every frame), 2 s real time.
            #expect(segments.map { $0["framesOut"] as? Int } == [60, 240, 60])
            #expect(segments.map { $0["video"] as? String } == ["copy", "copy", "copy"])
            #expect(segments.map { ($0["droppedByLayer"] as? [String: Int])?["2"] } == [120, nil, 120])
        case "re-encode":
            #expect(plan["reencoded"] as? Bool == true)
            #expect((plan["reencodeReason"] as? String)?.contains("nearest lossless: --fps 30") == true)
        case "decimation to 60", "decimation to 30":
            #expect(plan["reencoded"] as? Bool == false)
            #expect((plan["audio"] as? [String: Any])?["algorithm"] as? String == "copy")
        case "range cut under an edit list":
            #expect(plan["hiddenFrames"] as? Int ?? 0 > 0)
        case "splice":
            #expect(plan["spliced"] as? Bool == true)
            #expect((plan["reencodedSpans"] as? [Any])?.count == 1)
        default:
            #expect(plan["reencoded"] as? Bool == false)
        }
    }

    /// Another encoder's file: libx264 with B-frames and no layers, stream-copied by ffmpeg into MKV.
    @Test(arguments: [
        Case(name: "conform", arguments: ["--conform", "30"]),
        Case(name: "non-reference frames dropped", arguments: ["--fps", "30"]),
        Case(name: "re-encoded ramp into MKV", arguments: ["--ramp", "0-0.7@1,0.7-1.4@0.5,1.4-@1"], ext: "mkv"),
    ])
    func planEqualsTheWrittenFileForAForeignInput(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        let encoded = dir.path("x264.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=60", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
            "-t", "2.05", "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-c:a", "aac", encoded,
        ])
        let inputs = try TemporaryDirectory()
        let input = inputs.path("copy.mkv")
        try ExportInputs.ffmpeg(["-i", encoded, "-c", "copy", input])
        let plan = try Self.compare(input: input, c, in: dir)
        #expect(plan["captureFrameRateSource"] as? String == "measured")
    }

    /// Issue 27: the dry run and the export agree on 11 other tools' files from the valid-world corpus
    /// (GStreamer, ffmpeg and camera-like layouts; MP4, fragmented MP4, MOV, MKV, WebM, MPEG-TS, AVI;
    /// H.264 with B-frames, HEVC, VP9, ProRes, MJPEG, MPEG-4; PCM, AAC, Opus, MP3; several audio and
    /// subtitle tracks): frames, length, segments and the plan the export reports, as `compare`
    /// checks them; and every audio and subtitle track of the input is in the output.
    @Test(arguments: [
        ("gst_x264_bf_mp4mux_120.mp4", ["--conform", "30"], "mp4"),
        ("mkv_h264_srt_ass_2audio.mkv", ["--ramp", "0-0.5@1,0.5-1.2@0.5,1.2-@1"], "mkv"),
        ("mov_prores422_pcm24.mov", ["--conform", "15"], "mov"),
        ("gst_x264_mpegts.ts", ["--conform", "15"], "mp4"),
        ("avi_mjpeg_pcm16.avi", ["--conform", "15"], "mkv"),
        ("avi_mpeg4_xvid_mp3.avi", ["--conform", "15"], "mkv"),
        ("mkv_hevc_240.mkv", ["--fps", "60"], "mkv"),
        ("mkv_vp9_opus_60.mkv", ["--conform", "30"], "webm"),
        ("mp4_h264_frag_kf_emptymoov.mp4", ["--fps", "30"], "mp4"),
        ("iphone_like_slomo_240.mov", ["--conform", "30"], "mov"),
        ("mp4_h264_3aac_movtext2.mp4", ["--conform", "30"], "mp4"),
        // A timecode track, PCM retimed as PCM; B-frames re-encoded, audio muted; a re-encode into MKV.
        ("canon_like_h264_pcm_2997.mov", ["--conform", "30"], "mov"),
        ("mov_h264_2pcm_movtext.mov", ["--fps", "45", "--audio", "mute"], "mp4"),
        ("mp4_h264_audio_late.mp4", ["--fps", "24"], "mkv"),
    ])
    func dryRunAgreesWithTheExportOnOtherToolsFiles(file: String, arguments: [String], ext: String) throws {
        let corpus = try Self.corpus.get()
        let dir = try TemporaryDirectory()
        let input = corpus + "/" + file
        _ = try Self.compare(input: input, Case(name: file, arguments: arguments, ext: ext), in: dir)
        // The streams (not also the programs that list them again, as an MPEG-TS has).
        func tracks(_ path: String) throws -> [String] {
            let r = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "json", path])
            let streams = try Tool.json(r.stdout)["streams"] as? [[String: Any]] ?? []
            return streams.compactMap { $0["codec_type"] as? String }.filter { $0 == "audio" || $0 == "subtitle" }
        }
        if !arguments.contains("mute") { #expect(try tracks(dir.path("out.\(ext)")) == tracks(input), "\(file)") }
    }

    /// The valid-world corpus' directory, made (or found complete) once per run.
    static let corpus = Result { () throws -> String in
        let directory = ValidWorldCorpus.directory
        let made = try Tool.run(Fixtures.root.appendingPathComponent("scripts/make-corpus").path, [directory])
        guard made.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: ["make-corpus": String(made.stderr.suffix(2000))])
        }
        return directory
    }

    /// Dry run and real export on `input` with `c`; checks that the dry run wrote nothing and that
    /// its counts and duration are the file's and the report's. Returns the plan.
    static func compare(input: String, _ c: Case, in dir: TemporaryDirectory) throws -> [String: Any] {
        let out = dir.path("out.\(c.ext)")
        let before = try dir.contents()
        let text = try Tool.hfr(["export", input, out] + c.arguments + ["--dry-run"])
        #expect(text.status == 0, "\(text.stderr)")
        let dry = try Tool.hfr(["export", input, out] + c.arguments + ["--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try dir.contents() == before, "the dry run wrote something")
        let plan = try Tool.json(dry.stdout)
        #expect(plan["schema"] as? String == "hfr.export-plan/1")

        let real = try Tool.hfr(["export", input, out, "--json"] + c.arguments)
        #expect(real.status == 0, "\(real.stderr)")
        let report = try Tool.json(real.stdout)
        let framesOut = plan["framesOut"] as? Int ?? -1
        let duration = plan["outputDuration"] as? Double ?? -1

        // The file, as ffprobe reads it.
        #expect(try FFprobe.count(out, stream: "v:0", decoding: false) == framesOut)
        if c.ext == "mkv" || c.ext == "webm" {
            // Matroska stores milliseconds: the packets' span to within one.
            #expect(abs(try Self.packetSpan(out) - duration) <= 0.001 + 1e-9)
        } else {
            #expect(abs(try MediaChecks.duration(out, stream: "v:0") - duration) < 1e-6)
        }
        // The report, and the plan it carries: the same object the dry run printed.
        #expect((report["video"] as? [String: Any])?["framesOut"] as? Int == framesOut)
        #expect(report["outputDuration"] as? Double == duration)
        #expect((report["plan"] as? NSDictionary) == (plan as NSDictionary))
        // The segments add up, and each holds the frames the file shows in its output span.
        let segments = plan["segments"] as? [[String: Any]] ?? []
        #expect(segments.map { $0["framesOut"] as? Int ?? 0 }.reduce(0, +) == framesOut)
        let times = try MediaChecks.packets(out).map(\.time).filter { $0 >= -1e-6 }
        try checkTracks(plan, report: report, input: input, out: out, times: times)
        for (i, s) in segments.enumerated() {
            let span = s["output"] as? [String: Double] ?? [:]
            let (a, b) = (span["start"] ?? 0, span["end"] ?? 0)
            let hidden = s["hiddenFrames"] as? Int ?? 0
            // (The first segment owns everything from 0: a cut inside a frame shows part of it, which
            // MP4 readers place at 0.)
            let shown = times.filter { (i == 0 || $0 >= a - 1e-4) && (i == segments.count - 1 || $0 < b - 1e-4) }
                .count
            #expect(shown + hidden == s["framesOut"] as? Int, "segment \(i) \(a)-\(b)")
        }
        let seconds = String(format: "%.3f", duration)
        #expect(text.stdout.contains("Output: \(framesOut) frames at "), "\(text.stdout)")
        #expect(text.stdout.contains(", \(seconds) s"), "\(text.stdout)")
        #expect(text.stdout.contains("source s") && text.stdout.contains("frames out"), "\(text.stdout)")
        #expect(text.stdout.contains("track  input  kind"), "\(text.stdout)")
        return plan
    }

    /// Seconds from the earliest video packet's start to the latest one's end.
    static func packetSpan(_ path: String) throws -> Double {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,duration_time", "-of",
                "csv=p=0", path,
            ])
        let packets = r.stdout.split(separator: "\n").compactMap { line -> (Double, Double)? in
            let f = line.split(separator: ",").compactMap { Double($0) }
            return f.count == 2 ? (f[0], f[1]) : nil
        }
        let start = packets.map(\.0).min() ?? 0
        return (packets.map { $0.0 + $0.1 }.max() ?? 0) - start
    }

    /// Refusals and bad input: the dry run exits as the export does, with the same message, and
    /// neither leaves anything behind.
    @Test(arguments: [
        (["--fps", "40", "--reencode", "never"], "layered", "out.mp4", Int32(65)),
        (["--conform", "30"], "not-media.mp4", "out.mp4", Int32(65)),
        (["--conform", "30"], "truncated.mp4", "out.mp4", Int32(65)),
        (["--conform", "30"], "layered", "out.avi", Int32(64)),
        (["--range", "9-10", "--conform", "30"], "layered", "out.mp4", Int32(64)),
        (["--conform", "30"], "layered", "missing/out.mp4", Int32(74)),
        (["--conform", "30"], "vp8", "out.mp4", Int32(65)),
    ])
    func refusalsExitLikeTheExport(arguments: [String], input: String, output: String, status: Int32) throws {
        let dir = try TemporaryDirectory()
        let inputs = try TemporaryDirectory()
        var source = input == "layered" ? Fixtures.path("layered-120fps.mp4") : Fixtures.path(input)
        if input == "vp8" {
            // A codec MP4 cannot hold: copying it is refused before anything is written.
            source = inputs.path("vp8.mkv")
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=60", "-t", "1", "-c:v", "libvpx", source,
            ])
        }
        let before = try dir.contents()
        let dry = try Tool.hfr(["export", source, dir.path(output), "--dry-run"] + arguments)
        #expect(try dir.contents() == before)
        let real = try Tool.hfr(["export", source, dir.path(output)] + arguments)
        #expect(try dir.contents() == before)
        #expect(dry.status == status, "\(dry.stderr)")
        #expect(real.status == status, "\(real.stderr)")
        #expect(dry.stderr == real.stderr)
        #expect(dry.stdout.isEmpty)
    }

    /// The export's bad inputs fail the dry run with the same exit code and message (but for an
    /// existing output, which the dry run does not write). Corrupt audio is among them: the dry run
    /// decodes the audio packets as the export does, whether it copies or retimes them.
    @Test(arguments: ExportBadInputTests.cases.filter { $0.name != "existing output" })
    func badInputFailsTheDryRunAsTheExport(_ c: ExportBadInputTests.Case) throws {
        let dir = try TemporaryDirectory()
        let input = try c.prepare(dir)
        let before = try dir.contents()
        let dry = try Tool.hfr(["export", input, dir.path("out.mp4"), "--dry-run"] + c.options)
        #expect(dry.status == c.exitCode, "\(dry.stderr)")
        let errors = dry.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
        #expect(errors.count == 1 && errors[0].contains(c.cause), "\(dry.stderr)")
        #expect(dry.stdout.isEmpty)
        #expect(try dir.contents() == before)
    }

    /// Nothing is written, so an existing OUTPUT is no obstacle (the export itself refuses it
    /// without --force) and stays as it was.
    @Test func anExistingOutputIsLeftAlone() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))
        let input = Fixtures.path("layered-120fps.mp4")
        let dry = try Tool.hfr(["export", input, out, "--fps", "60", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Output: 120 frames at 60 fps, 2.000 s; audio copied"), "\(dry.stdout)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me")
        #expect(try dir.contents() == ["out.mp4"])
        let real = try Tool.hfr(["export", input, out, "--fps", "60"])
        #expect(real.status == 74)
    }
}
