import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Valid files whose timing other tools shaped (issue 41 items 8–10, 13): a phone-like clip trimmed
/// by stream copy, a fragmented MP4 without `default_base_moof`, MPEG-4 Part 2 in AVI with MP3, a
/// Matroska file timed by a timestamps file. Each was refused or mistimed; `hfr probe` and the
/// export plan now give one capture rate, measured once (`FrameRateMeasurement`), and the exports
/// hold every frame at that rate (checked with ffprobe).
@Suite(.serialized) struct ForeignTimingTests {
    /// The capture rate `hfr probe --json` reports and the one an export that reads every packet
    /// (`--fps 60 --dry-run --json`) plans with.
    static func rates(_ input: String, in dir: TemporaryDirectory) throws -> (probe: String?, plan: String?) {
        let probe = try Tool.hfr(["probe", input, "--json"])
        let plan = try Tool.hfr(["export", input, dir.path("plan.mkv"), "--fps", "60", "--dry-run", "--json"])
        let video = probe.status == 0 ? try Tool.json(probe.stdout)["video"] as? [String: Any] : nil
        return (
            video?["captureFrameRate"] as? String,
            plan.status == 0 ? try Tool.json(plan.stdout)["captureFrameRate"] as? String : nil
        )
    }

    /// Presentation times of the video packets of `path`, ascending.
    static func times(_ path: String) throws -> [Double] {
        try MediaChecks.packets(path).map(\.time).sorted()
    }

    /// Exports `input` with `options` into `output`; true on exit 0.
    static func export(_ input: String, _ output: String, _ options: [String]) throws -> Bool {
        let r = try Tool.hfr(["export", input, output] + options)
        #expect(r.status == 0, "\(options.joined(separator: " ")): \(r.stderr)")
        return r.status == 0
    }

    /// `ffmpeg -ss 0.3 -i x.mp4 -c copy -t 1.2 out.mov` of a 120 fps clip with B-frames (the shape
    /// of a phone's trimmed clip): an edit list hides the frames from the keyframe to the cut, and
    /// the cut in decode order leaves out the B-frames before the last reference frame. Measured
    /// 118.7 fps (the hidden frames and that gap counted); `--conform 30` and `--speed 0.5` refused
    /// ("the written file says 4.934 s for 146 frames").
    @Test(arguments: [
        ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "2"],
        ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:bframes=2", "-tag:v", "hvc1"],
    ])
    func trimmedClipWithBFramesKeepsItsRateAndFrames(video: [String]) throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.mp4")
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-f", "lavfi", "-i", "sine=sample_rate=48000",
                "-t", "2",
            ] + video + ["-c:a", "aac", source])
        let input = dir.path("trimmed.mov")
        try ExportInputs.ffmpeg(["-ss", "0.3", "-i", source, "-c", "copy", "-t", "1.2"] + video.suffix(2) + [input])
        let rates = try Self.rates(input, in: dir)
        #expect(rates.probe == "120/1" && rates.plan == "120/1", "\(rates)")
        let shown = try FFprobe.count(input, stream: "v:0", decoding: true)
        let length = try MediaChecks.duration(input, stream: "v:0")
        for (options, slower) in [(["--conform", "30"], 4.0), (["--speed", "0.5"], 2.0)] {
            let out = dir.path("out-\(options[0].dropFirst(2)).mov")
            guard try Self.export(input, out, options) else { continue }
            #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == shown)
            let outLength = try MediaChecks.duration(out, stream: "v:0")
            #expect(abs(outLength - slower * length) < 0.01, "\(options): \(outLength) s for \(length) s")
        }
    }

    /// `-movflags frag_keyframe+empty_moov` without `default_base_moof`, B-frames, AAC: FFmpeg's
    /// reader takes the first fragment's first decode time as 0, so the first frame shows 4.6
    /// periods early (the muxer's offset for the audio's priming). Measured 238.2 fps; `--conform
    /// 30` refused ("16.104 s for 480 frames"), `--fps 60` wrote 121 frames for 2 s.
    @Test func fragmentedMP4WithoutBaseMoofStartsWithItsSecondFrame() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("frag.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=240", "-f", "lavfi", "-i", "sine=sample_rate=48000", "-t",
            "2", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "3", "-c:a", "aac", "-movflags",
            "frag_keyframe+empty_moov", input,
        ])
        let rates = try Self.rates(input, in: dir)
        #expect(rates.probe == "240/1" && rates.plan == "240/1", "\(rates)")
        let slow = dir.path("slow.mp4")
        if try Self.export(input, slow, ["--conform", "30"]) {
            let times = try Self.times(slow)
            #expect(times.count == 480)
            let steps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.001 }, "\(steps.min() ?? 0)...\(steps.max() ?? 0)")
            #expect(abs(try MediaChecks.duration(slow, stream: "v:0") - 16) < 0.002)
        }
        let half = dir.path("half.mp4")
        if try Self.export(input, half, ["--fps", "60"]) {
            #expect(try FFprobe.count(half, stream: "v:0", decoding: true) == 120)
        }
    }

    /// ffmpeg's AVI of MPEG-4 Part 2 with MP3 (`-c:v mpeg4 -q:v 5 -c:a libmp3lame`): the muxer
    /// shifts the video by the MP3 priming and, AVI having no start time, writes empty index
    /// entries after the first frame. They were counted as frame periods: `--conform 30` ended at
    /// 8.121 s instead of 8.000 s, `--fps 60` wrote 122 frames instead of 120.
    @Test func mpeg4InAVIDoesNotCountEmptyEntries() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("part2.avi")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-f", "lavfi", "-i", "sine=sample_rate=48000", "-t",
            "2", "-c:v", "mpeg4", "-q:v", "5", "-c:a", "libmp3lame", input,
        ])
        // The shape: more index entries than frames (the empty ones).
        #expect(Int(try MediaChecks.entry(input, stream: "v:0", "nb_frames")) ?? 0 > 240)
        let rates = try Self.rates(input, in: dir)
        #expect(rates.probe == "120/1" && rates.plan == "120/1", "\(rates)")
        let slow = dir.path("slow.mkv")
        if try Self.export(input, slow, ["--conform", "30"]) {
            let times = try Self.times(slow)
            #expect(times.count == 240)
            let steps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.0011 }, "\(steps.min() ?? 0)...\(steps.max() ?? 0)")
        }
        let half = dir.path("half.mkv")
        if try Self.export(input, half, ["--fps", "60"]) {
            #expect(try FFprobe.count(half, stream: "v:0", decoding: true) == 120)
        }
    }

    /// HEVC in Matroska timed by `mkvmerge --timestamps 0:ts.txt` (v2, 120 fps in milliseconds),
    /// every tenth step twice as long: frames missing from a 120 fps capture. `hfr probe` said
    /// 109.033 fps (the average over the gaps), the export plan 120.005 (the container's guess):
    /// both say 120 now, and the conform puts the frames back on the 120 fps grid (each gap whole
    /// periods long).
    @Test func timestampsFileGapsAreMissingFramesForProbeAndExport() throws {
        let dir = try TemporaryDirectory()
        let raw = dir.path("v.hevc")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-t", "2", "-c:v", "libx265", "-preset",
            "ultrafast", "-x265-params", "log-level=error", "-f", "hevc", raw,
        ])
        var step = 0
        var lines = ["# timestamp format v2"]
        for frame in 0..<240 {
            lines.append(String(format: "%.3f", Double(step) * 1000 / 120))
            step += frame % 10 == 5 ? 2 : 1
        }
        let timestamps = dir.path("ts.txt")
        try (lines.joined(separator: "\n") + "\n").write(toFile: timestamps, atomically: true, encoding: .utf8)
        let input = dir.path("gaps.mkv")
        let made = try Tool.run("mkvmerge", ["-q", "-o", input, "--timestamps", "0:\(timestamps)", raw])
        try #require(made.status == 0, "mkvmerge: \(made.stdout) \(made.stderr)")
        let rates = try Self.rates(input, in: dir)
        #expect(rates.probe == "120/1" && rates.plan == "120/1", "\(rates)")
        let slow = dir.path("slow.mkv")
        if try Self.export(input, slow, ["--conform", "30"]) {
            let times = try Self.times(slow)
            #expect(times.count == 240)
            // 239 steps: 215 of one period, 24 of two, each 1/30 s per period (to the millisecond;
            // the input's milliseconds scaled as they were stepped 32 and 36 ms).
            let steps = zip(times, times.dropFirst()).map { ($1 - $0) * 30 }
            #expect(steps.allSatisfy { abs($0 - $0.rounded()) < 0.04 }, "\(steps.min() ?? 0)...\(steps.max() ?? 0)")
            #expect(steps.filter { $0.rounded() == 2 }.count == 24)
        }
    }
}
