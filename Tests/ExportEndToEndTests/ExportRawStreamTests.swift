import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Raw H.264/HEVC elementary streams, as `rpicam-vid` writes them (Annex B, no container, no frame
/// times), timed by a `--save-pts` file ("timecode format v2": one time in ms per frame) or a rate.
@Suite(.serialized) struct ExportRawStreamTests {
    let dir: TemporaryDirectory
    /// Source frames the camera dropped: gaps of two frame periods in the timestamps.
    static let dropped: Set<Int> = [50, 150, 250]
    static let frames = 300

    init() throws { dir = try TemporaryDirectory() }

    /// 300 frames of 120 fps test pattern, libx264 without B-frames (as the Pi encoders), as a raw
    /// stream: encoded into MP4 first, then taken out the way users do (`-bsf h264_mp4toannexb`).
    func rawH264(bframes: Int = 0, name: String = "raw.h264") throws -> String {
        let mp4 = dir.path("source-\(name).mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120", "-frames:v", "\(Self.frames)", "-c:v", "libx264",
            "-bf", "\(bframes)", "-g", "60", mp4,
        ])
        let raw = dir.path(name)
        try ExportInputs.ffmpeg(["-i", mp4, "-c:v", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", raw])
        return raw
    }

    /// The times of 300 frames at 120 fps with three dropped, as rpicam-vid writes them: whole
    /// microseconds as milliseconds with three decimals, after the v2 header. In microseconds.
    func writeTimestamps(_ name: String = "pts.txt", extra: Int = 0) throws -> (path: String, micros: [Int64]) {
        let slots = (0..<(Self.frames + Self.dropped.count + max(extra, 0))).filter { !Self.dropped.contains($0) }
        let micros = slots.prefix(Self.frames + extra).map { (Int64($0) * 1_000_000 + 60) / 120 }
        let lines = micros.map { String(format: "%lld.%03lld", $0 / 1000, $0 % 1000) }
        let path = dir.path(name)
        try (["# timecode format v2"] + lines).joined(separator: "\n").appending("\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return (path, micros)
    }

    func export(_ arguments: [String]) throws -> ToolResult { try Tool.hfr(["export"] + arguments) }

    /// Every video packet's pts in seconds (presentation order) and the stream's time base tick.
    func presentationTimes(_ path: String) throws -> (times: [Double], tick: Double) {
        let r = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
        let base = try MediaChecks.entry(path, stream: "v:0", "time_base").split(separator: "/")
        let tick = Double(base[0])! / Double(base[1])!
        return (r.stdout.split(separator: "\n").compactMap { Double($0) }.sorted(), tick)
    }

    /// Decodes every frame with the times as they are (a VFR file through ffmpeg's default 1/rate
    /// output clock would report frames colliding there, not decode errors); empty = clean.
    func decodeErrors(_ path: String) throws -> String {
        let r = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-i", path, "-fps_mode", "passthrough", "-enc_time_base", "-1", "-f", "null",
                "-",
            ])
        return r.status == 0 ? r.stderr : "exit \(r.status): \(r.stderr)"
    }

    /// The MD5 of every decoded picture in order: the same for the raw stream and a lossless copy.
    func pictureMD5(_ path: String) throws -> String {
        try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-fps_mode", "passthrough", "-f", "md5", "-"])
            .stdout
    }

    /// `--conform 30` of a 120 fps raw stream whose camera dropped 3 frames: every frame kept, the
    /// output times are the source times scaled 4× (the capture rate is the frames' period, 120 fps,
    /// not their average over the gaps: 303 slots, not 300), so the 3 gaps are still there, twice
    /// the other steps; MP4/MOV get an avcC record, and everything decodes.
    @Test(arguments: ["mp4", "mov", "mkv"])
    func conformKeepsTheGapsOfATimestampsFile(container: String) throws {
        let raw = try rawH264()
        let (pts, micros) = try writeTimestamps()
        let out = dir.path("slow.\(container)")
        let r = try export([raw, out, "--timestamps", pts, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("uneven"), "stderr: \(r.stderr)")

        let (times, tick) = try presentationTimes(out)
        try #require(times.count == Self.frames)
        for (i, t) in times.enumerated() {
            let expected = Double(micros[i] - micros[0]) / 1e6 * 120 / 30
            #expect(abs(t - times[0] - expected) <= tick, "frame \(i): \(t - times[0]) s, expected \(expected)")
        }
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        let usual = steps.sorted()[steps.count / 2]
        let gaps = steps.indices.filter { steps[$0] > 1.5 * usual }
        #expect(Set(gaps.map { $0 + 1 }) == Set(Self.dropped.sorted().enumerated().map { $1 - $0 }))
        #expect(gaps.allSatisfy { abs(steps[$0] - 2 * usual) <= 2 * tick })
        // Even to within what rounding allows: source times in whole µs (slowed 4×: 0.4 of a 1/90000
        // tick), each output time rounded to its tick, ffprobe's 6 printed decimals.
        #expect(steps.indices.filter { !gaps.contains($0) }.allSatisfy { abs(steps[$0] - usual) <= 2 * tick })

        #expect(try decodeErrors(out).isEmpty)
        #expect(try pictureMD5(out) == pictureMD5(raw))
        if container != "mkv" {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
            let avcC = bytes.indices.dropLast(5).first { bytes[$0..<($0 + 4)].elementsEqual("avcC".utf8) }
            #expect(avcC.map { bytes[$0 + 4] } == 1, "an avcC record (configurationVersion 1), not Annex B")
        }
    }

    /// `--input-fps 120`: every frame 1/120 s, so `--conform 30` is exactly 30/1 and 4× slower.
    @Test func inputFpsGivesAConstantRate() throws {
        let raw = try rawH264()
        let out = dir.path("slow.mp4")
        let r = try export([raw, out, "--input-fps", "120", "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("uneven"), "stderr: \(r.stderr)")
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(try MediaChecks.entry(out, stream: "v:0", "avg_frame_rate") == "30/1")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == Self.frames)
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 10) < 0.001)
        let ticks = try Tool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", out]
        ).stdout.split(separator: "\n").compactMap { Int64($0) }.sorted()
        let steps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
        #expect(ticks.count == Self.frames && Set(steps).count == 1, "steps: \(Set(steps))")
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        #expect(try pictureMD5(out) == pictureMD5(raw))
    }

    /// An hfr recording (OpenH264, temporal layers) taken out of its MP4 as a raw stream, with its
    /// frame times written to a v2 file as mkvextract would (ms, 6 decimals): every frame kept,
    /// the same pictures, and the times of a conform of the MP4 itself to within a tick; with
    /// `--input-fps 120` exactly those times.
    @Test func conformsAnHFRRecordingTakenOutAsARawStream() throws {
        let recording = try ExportInputs.sixSeconds.get()
        let raw = dir.path("rec.h264")
        try ExportInputs.ffmpeg([
            "-i", recording, "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", raw,
        ])
        let probe = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", recording])
        let ticks = probe.stdout.split(separator: "\n").compactMap { Int64($0) }.sorted()
        try #require(MediaChecks.entry(recording, stream: "v:0", "time_base") == "1/90000" && ticks.count > 600)
        let lines = ticks.map { String(format: "%.6f", Double($0 - ticks[0]) / 90) }
        let pts = dir.path("rec.txt")
        try (["# timestamp format v2"] + lines).joined(separator: "\n").write(
            toFile: pts, atomically: true, encoding: .utf8)

        let reference = dir.path("reference.mp4")
        #expect(try export([recording, reference, "--conform", "30", "--audio", "mute"]).status == 0)
        let expected = try presentationTimes(reference).times
        for (name, options) in [("listed.mp4", ["--timestamps", pts]), ("fixed.mp4", ["--input-fps", "120"])] {
            let out = dir.path(name)
            let r = try export([raw, out, "--conform", "30"] + options)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let (times, tick) = try presentationTimes(out)
            try #require(times.count == ticks.count)
            // A list in ms with 6 decimals holds 1/120 s to a nanosecond: within a tick; a rate exactly.
            let tolerance = name == "fixed.mp4" ? 1e-9 : tick
            #expect(
                zip(times, expected).allSatisfy { abs(($0 - times[0]) - ($1 - expected[0])) <= tolerance }, "\(name)")
            #expect(try decodeErrors(out).isEmpty)
            #expect(try pictureMD5(out) == pictureMD5(reference))
        }
        #expect(try MediaChecks.entry(dir.path("fixed.mp4"), stream: "v:0", "r_frame_rate") == "30/1")
    }

    /// One timestamp more or fewer than frames: one line naming both counts, exit 65, no output.
    @Test(arguments: [1, -1])
    func refusesTimestampsThatAreNotOnePerFrame(extra: Int) throws {
        let raw = try rawH264()
        let (pts, _) = try writeTimestamps("pts-\(extra).txt", extra: extra)
        let r = try export([raw, dir.path("out.mp4"), "--timestamps", pts, "--conform", "30"])
        #expect(r.status == 65)
        #expect(r.stderr.split(separator: "\n").count == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("\(Self.frames + extra) timestamps") && r.stderr.contains("\(Self.frames) frames"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        #expect(try dir.contents().allSatisfy { !$0.hasPrefix("out") && !$0.hasPrefix(".out") })
    }

    /// A raw stream without either option is refused naming both (exit 64); so are both together,
    /// and either for a container (its own timestamps rule).
    @Test func refusesRawStreamsWithoutTimesAndContainersWithThem() throws {
        let raw = try rawH264()
        let (pts, _) = try writeTimestamps()
        let none = try export([raw, dir.path("a.mp4"), "--conform", "30"])
        #expect(none.status == 64)
        #expect(
            none.stderr.split(separator: "\n").first.map { $0.contains("--timestamps") && $0.contains("--input-fps") }
                == true, "stderr: \(none.stderr)")
        let both = try export([raw, dir.path("b.mp4"), "--timestamps", pts, "--input-fps", "120", "--conform", "30"])
        #expect(both.status == 64)
        let mp4 = dir.path("source-raw.h264.mp4")
        let container = try export([mp4, dir.path("c.mp4"), "--input-fps", "120", "--conform", "30"])
        #expect(container.status == 64)
        #expect(container.stderr.contains("own timestamps"), "stderr: \(container.stderr)")
        let badRate = try export([raw, dir.path("d.mp4"), "--input-fps", "0", "--conform", "30"])
        #expect(badRate.status == 64)
        #expect(try dir.contents().filter { $0.hasSuffix(".mp4") } == ["source-raw.h264.mp4"])
    }

    /// A timestamps file with a bad line (or times that go back) → exit 65 naming the line.
    @Test(arguments: [("8.3x3", "'8.3x3'"), ("0.000", "not after the previous time")])
    func refusesATimestampsFileWithABadLine(line: String, cause: String) throws {
        let raw = try rawH264()
        let (pts, _) = try writeTimestamps()
        var lines = try String(contentsOfFile: pts, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        lines[100] = Substring(line)
        try lines.joined(separator: "\n").write(toFile: pts, atomically: true, encoding: .utf8)
        let r = try export([raw, dir.path("out.mp4"), "--timestamps", pts, "--conform", "30"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("pts.txt: line 101: ") && r.stderr.contains(cause), "stderr: \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
    }

    /// A timestamps file saved as UTF-16 (with its byte-order mark, as Windows editors save) or
    /// with a UTF-8 byte-order mark is read as the same times (UTF-16 was "cannot read", exit 74);
    /// bytes that are no text are bad data (65), a directory an I/O error (74), each in one line.
    @Test func aTimestampsFileIsReadInUTF8OrUTF16AndAnythingElseIsNamed() throws {
        let raw = try rawH264()
        let (pts, _) = try writeTimestamps()
        let text = try String(contentsOfFile: pts, encoding: .utf8)
        let utf16 = dir.path("pts-utf16.txt")
        try text.write(toFile: utf16, atomically: true, encoding: .utf16)
        let bom8 = dir.path("pts-bom.txt")
        try (Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)).write(to: URL(fileURLWithPath: bom8))
        var outputs: [String] = []
        for (name, file) in [("utf8", pts), ("utf16", utf16), ("bom", bom8)] {
            let out = dir.path("\(name).mp4")
            let r = try export([raw, out, "--timestamps", file, "--conform", "30"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            outputs.append(try presentationTimes(out).times.map { String($0) }.joined(separator: ","))
        }
        #expect(Set(outputs).count == 1 && !outputs[0].isEmpty)
        let binary = dir.path("pts.bin")
        try Data([0x00, 0xC3, 0x28, 0xFF, 0x80, 0x0A]).write(to: URL(fileURLWithPath: binary))
        for (file, status, cause) in [
            (binary, Int32(65), "not a text file of timestamps"), (dir.path(""), 74, "Is a directory"),
        ] {
            let r = try export([raw, dir.path("bad.mp4"), "--timestamps", file, "--conform", "30"])
            #expect(r.status == status && r.stderr.contains(cause), "\(file): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("bad.mp4")))
    }

    /// A 30-hour gap in the timestamps, exported with `--fps 60`: the re-encoder repeats a frame
    /// 6.5 million times from one input packet. SIGTERM during it stops the export at once (it
    /// was asked only between input packets: before, it ran on through the whole gap, minutes
    /// here; the 1 hour of the issue took 2.2 s), exit 130, nothing left.
    @Test func aSignalStopsAReencodeInsideALongGap() throws {
        let raw = try rawH264()
        let (pts, micros) = try writeTimestamps()
        let gap = Int64(30 * 3600) * 1_000_000
        let lines = micros.enumerated().map { i, t in
            // Right after the second frame: the re-encoder is inside the gap as soon as it writes.
            let shifted = t + (i >= 2 ? gap : 0)
            return String(format: "%lld.%03lld", shifted / 1000, shifted % 1000)
        }
        try (["# timecode format v2"] + lines).joined(separator: "\n").appending("\n")
            .write(toFile: pts, atomically: true, encoding: .utf8)
        let out = dir.path("gap.mp4")
        let export = try BackgroundProcess(
            Tool.hfrPath, ["export", raw, out, "--timestamps", pts, "--fps", "60"], directory: dir)
        let isWriting = Tool.waitForOutput(of: export.process.processIdentifier, in: dir.url.path, timeout: 60)
        #expect(isWriting, "never started writing: \(export.stderrSoFar)")
        export.send(SIGTERM)
        let sent = Date()
        while export.process.isRunning, Date().timeIntervalSince(sent) < 30 { usleep(10_000) }
        let stoppedAfter = Date().timeIntervalSince(sent)
        if export.process.isRunning { export.send(SIGKILL) }
        let r = export.wait()
        print("SIGTERM inside a 30-hour gap: stopped after \(String(format: "%.3f", stoppedAfter)) s")
        #expect(r.status == 130, "after \(stoppedAfter) s: \(r.stderr)")
        #expect(r.stderr.hasSuffix("Error: \(out): interrupted; nothing written\n"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).allSatisfy { !$0.hasPrefix(".gap") })
    }

    /// B-frames: read order is not presentation order (was refused, exit 65). The frames are copied
    /// with the times of the pictures they show: the output decodes to the raw stream's pictures in
    /// the raw stream's own order (ffmpeg's decode of each, compared picture by picture), each
    /// 1/30 s after the one before.
    @Test func aRawStreamWithBFramesKeepsItsPresentationOrder() throws {
        let raw = try rawH264(bframes: 3, name: "bframes.h264")
        let out = dir.path("out.mp4")
        let r = try export([raw, out, "--input-fps", "120", "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("300 of 300 frames copied losslessly"), "stderr: \(r.stderr)")
        func pictures(_ path: String, _ options: [String]) throws -> [Substring] {
            let run = try Tool.run(
                "ffmpeg", ["-v", "error", "-nostdin"] + options + ["-i", path, "-f", "framemd5", "-"])
            return run.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
                $0.split(separator: ",").last
            }
        }
        let source = try pictures(raw, ["-f", "h264"])
        #expect(source.count == Self.frames)
        #expect(try pictures(out, []) == source)
        let times = try MediaChecks.packets(out).map(\.time).sorted()
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 1e-4 }, "steps \(steps.min() ?? 0)...\(steps.max() ?? 0)")
    }

    /// `probe` with the same options: the rate the export plans with (one measurement, docs/inputs.md
    /// "the measured rate"): the frames' period, 120 fps, not their average over the 3 dropped
    /// frames (118.808 fps, 299 periods over 302), as `conformKeepsTheGapsOfATimestampsFile`
    /// conforms with; or the rate given.
    @Test func probeShowsTheGivenTiming() throws {
        let raw = try rawH264()
        let (pts, _) = try writeTimestamps()
        let timed = try Tool.hfr(["probe", raw, "--timestamps", pts, "--json"])
        #expect(timed.status == 0, "stderr: \(timed.stderr)")
        let video = try Tool.json(timed.stdout)["video"] as? [String: Any]
        #expect(video?["captureFrameRate"] as? String == "120/1")
        #expect(video?["frames"] as? Int == Self.frames)
        let fixed = try Tool.hfr(["probe", raw, "--input-fps", "120000/1001", "--json"])
        #expect(
            (try Tool.json(fixed.stdout)["video"] as? [String: Any])?["captureFrameRate"] as? String == "120000/1001")
    }

    /// Raw HEVC (libx265 without B-frames): probe reads it with the timestamps file.
    @Test func probeReadsRawHEVCWithTimestamps() throws {
        let raw = dir.path("raw.h265")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120", "-frames:v", "\(Self.frames)", "-c:v", "libx265",
            "-x265-params", "bframes=0:log-level=error", "-f", "hevc", raw,
        ])
        let (pts, micros) = try writeTimestamps()
        let r = try Tool.hfr(["probe", raw, "--timestamps", pts, "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let streams = try Tool.json(r.stdout)["streams"] as? [[String: Any]]
        #expect(streams?.first?["frames"] as? Int == Self.frames)
        #expect(streams?.first?["timeBase"] as? String == "1/1000000")
        let duration = streams?.first?["measuredDuration"] as? Double ?? 0
        #expect(duration > Double(micros.last! - micros.first!) / 1e6)
    }

    /// Raw HEVC exports like raw H.264 once export stream-copies HEVC (issue 12 item 1, another
    /// branch): enable when that is merged.
    @Test
    func conformsRawHEVCWithTimestamps() throws {
        let raw = dir.path("raw.h265")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120", "-frames:v", "\(Self.frames)", "-c:v", "libx265",
            "-x265-params", "bframes=0:log-level=error", "-f", "hevc", raw,
        ])
        let (pts, micros) = try writeTimestamps()
        let out = dir.path("slow.mp4")
        let r = try export([raw, out, "--timestamps", pts, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let (times, tick) = try presentationTimes(out)
        try #require(times.count == Self.frames)
        for (i, t) in times.enumerated() {
            let expected = Double(micros[i] - micros[0]) / 1e6 * 120 / 30
            #expect(abs(t - times[0] - expected) <= tick, "frame \(i)")
        }
        #expect(["hvc1", "hev1"].contains(try MediaChecks.entry(out, stream: "v:0", "codec_tag_string")))
        #expect(try decodeErrors(out).isEmpty)
        #expect(try pictureMD5(out) == pictureMD5(raw))
    }
}
