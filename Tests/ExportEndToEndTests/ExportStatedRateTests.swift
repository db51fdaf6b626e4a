import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// A retimed copy states the output's frame rate in its own parameter sets (`StatedRateRewrite`):
/// every SPS (and HEVC VPS) in the record and in band says the new rate, so ffprobe, which takes
/// each packet's duration from it, agrees with the container; the pictures stay bit for bit.
/// Before, x264's 30 fps conformed to 60 fps kept saying 30: every packet lasted 1/30 s in ffprobe
/// and the last one ran 1/60 s past the end.
@Suite struct ExportStatedRateTests {
    /// What every parameter set in the file says: time_scale ÷ num_units_in_tick, per frame (H.264
    /// counts two ticks per frame), read by FFmpeg's trace_headers filter.
    static func statedRates(_ path: String, hevc: Bool) throws -> [Double] {
        let r = try Tool.run(
            "ffmpeg",
            [
                "-nostdin", "-loglevel", "trace", "-i", path, "-map", "0:v", "-c", "copy", "-bsf:v", "trace_headers",
                "-f", "null", "-",
            ])
        func values(_ name: String) -> [Double] {
            r.stderr.split(separator: "\n").compactMap { line in
                guard line.contains("trace_headers"), line.split(separator: " ").contains(Substring(name)) else {
                    return nil
                }
                return line.split(separator: " ").last.flatMap { Double($0) }
            }
        }
        let prefix = hevc ? "vui_" : ""
        let scales = values(prefix + "time_scale")
        let ticks = values(prefix + "num_units_in_tick")
        return zip(scales, ticks).map { $0 / $1 / (hevc ? 1 : 2) }
    }

    static func pictureHashes(_ path: String) throws -> [Substring] {
        let r = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
        return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last
        }
    }

    /// x264 with B-frames (SPS in the avcC record), OpenH264's layers (SPS repeated at each IDR)
    /// into MP4 and MKV, x265 (VPS and SPS in hvcC and the first packet), and x264 in MPEG-TS with
    /// the SPS before every key frame.
    @Test(arguments: [
        ("x264-bframes.mp4", ["--conform", "60", "--audio", "mute"], "out.mp4", 60.0, false),
        ("layered-120fps.mp4", ["--conform", "30"], "out.mp4", 30.0, false),
        ("layered-120fps.mp4", ["--fps", "60"], "out.mkv", 60.0, false),
        ("x265", ["--conform", "30"], "out.mp4", 30.0, true),
        ("x264.ts", ["--conform", "30"], "out.mp4", 30.0, false),
    ])
    func retimedCopyStatesTheOutputRate(
        input name: String, options: [String], output: String, rate: Double, hevc: Bool
    ) throws {
        let dir = try TemporaryDirectory()
        let input: String
        if name == "x265" {
            input = dir.path("x265.mkv")
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=120:duration=1", "-c:v", "libx265", "-x265-params",
                "log-level=error:bframes=2", input,
            ])
        } else if name == "x264.ts" {
            // A broadcast-style stream: the SPS repeated in band before every key frame (4 here).
            input = dir.path(name)
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=60:duration=2", "-c:v", "libx264", "-preset",
                "ultrafast", "-g", "30", "-x264-params", "repeat-headers=1", input,
            ])
        } else {
            input = try Fixtures.copy(name, to: dir)
        }
        #expect(try Self.statedRates(input, hevc: hevc).allSatisfy { $0 != rate })
        let out = dir.path(output)
        let r = try Tool.hfr(["export", input, out] + options)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let stated = try Self.statedRates(out, hevc: hevc)
        #expect(!stated.isEmpty && stated.allSatisfy { $0 == rate }, "stated \(stated)")
        // ffprobe's packet durations (from the stated rate) are one output frame, to the container's
        // rounding (Matroska's milliseconds).
        let durations = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration_time", "-of", "csv=p=0", out]
        ).stdout.split(separator: "\n").compactMap { Double($0) }
        #expect(!durations.isEmpty && durations.allSatisfy { abs($0 - 1 / rate) < 0.001 }, "\(Set(durations))")
        let source = try Self.pictureHashes(input)
        let pictures = try Self.pictureHashes(out)
        if options.first == "--conform" {
            #expect(pictures == source)
        } else {
            #expect(pictures == source.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        }
    }
}
