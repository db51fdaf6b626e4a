import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Speeds below the capture rate (C·S/O < 1): `--interpolate flow|blend|repeat` on real files
/// made by ffmpeg, checked with ffprobe (packet counts and times) and by comparing decoded pictures.
@Suite(.serialized) struct ExportInterpolationTests {
    /// 2 s at 120 fps, 320x240: a fine texture (ffmpeg `geq`) panning 5 pixels per frame, so every
    /// pixel changes from frame to frame; x264 with B-frames; no audio.
    static let panning: Result<String, any Error> = Result {
        guard let dir = ExportInputs.directory else { throw CocoaError(.fileWriteUnknown) }
        let path = dir.path("pan-120.mp4")
        let x = "(X+600*T)"
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i",
            "nullsrc=size=320x240:rate=120:duration=2,"
                + "geq=lum='128+60*sin(\(x)/3)*cos(Y/5)+40*sin(\(x)/17+Y/11)':cb=128:cr=128,format=yuv420p",
            "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", path,
        ])
        return path
    }

    static let size = (width: 320, height: 240)

    /// `--speed 0.125 --fps 30` of 2 s at 120 fps: 480 output frames, half a captured frame apart.
    /// Even slots show captured frame i/2, odd ones a picture between frames (i−1)/2 and (i+1)/2,
    /// except the last, after the last captured frame (repeated).
    @Test(arguments: ["repeat", "blend", "flow"])
    func everyMethodGivesTheMapsFramesAtTheMapsTimes(method: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.panning.get()
        let out = dir.path("slow-\(method).mp4")
        let options = ["--speed", "0.125", "--fps", "30", "--interpolate", method]
        let r = try Tool.hfr(["export", input, out, "--json"] + options)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let packets = try MediaChecks.packets(out).map(\.time).sorted()
        #expect(packets.count == 480)
        for (i, t) in packets.enumerated() where abs(t - Double(i) / 30) > 1e-6 {
            Issue.record("frame \(i) at \(t) s, expected \(Double(i) / 30) s")
            break
        }
        #expect(try FFprobe.count(out, decoding: true) == 480)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        let made = method == "repeat" ? 0 : 239
        let video = try #require(try Tool.json(r.stdout)["video"] as? [String: Any])
        #expect(video["interpolatedFrames"] as? Int == made)
        #expect(video["interpolation"] as? String == (method == "repeat" ? nil : method))
        let plan = try #require(try Tool.json(r.stdout)["plan"] as? [String: Any])
        #expect(plan["interpolatedFrames"] as? Int == made)
        let segments = try #require(plan["segments"] as? [[String: Any]])
        #expect(segments.map { $0["interpolation"] as? String } == [method])
        // The dry run counts the same.
        let dry = try Tool.hfr(["export", input, dir.path("dry.mp4"), "--dry-run", "--json"] + options)
        #expect(dry.status == 0, "stderr: \(dry.stderr)")
        #expect(try Tool.json(dry.stdout)["interpolatedFrames"] as? Int == made)
        #expect(try Tool.json(dry.stdout)["framesOut"] as? Int == 480)
        try checkTag(out, method: method == "repeat" ? nil : method)
        try checkPictures(input: input, output: out, method: method, in: dir)
    }

    /// A ramp re-encoded: real time picks every 4th captured frame, the 0.1x segment (0.4 of a frame per
    /// output frame) makes 4 pictures in 5 with the default method, flow; times exact across both
    /// boundaries.
    @Test func rampMakesPicturesOnlyInTheSlowSegment() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("ramp.mkv")
        let r = try Tool.hfr([
            "export", try Self.panning.get(), out, "--ramp", "0-0.5@1,0.5-1@0.1,1-@1", "--fps", "30", "--json",
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let packets = try MediaChecks.packets(out).map(\.time).sorted()
        #expect(packets.count == 15 + 150 + 30)
        for (i, t) in packets.enumerated() where abs(t - Double(i) / 30) > 1e-3 {
            Issue.record("frame \(i) at \(t) s, expected \(Double(i) / 30) s")
            break
        }
        let json = try Tool.json(r.stdout)
        #expect((json["video"] as? [String: Any])?["interpolatedFrames"] as? Int == 120)
        let segments = try #require((json["plan"] as? [String: Any])?["segments"] as? [[String: Any]])
        #expect(segments.map { $0["interpolation"] as? String } == [nil, "flow", nil])
        #expect(segments.map { $0["interpolatedFrames"] as? Int } == [0, 120, 0])
        #expect(segments.map { $0["framesOut"] as? Int } == [15, 150, 30])
        try checkTag(out, method: "flow")
    }

    /// HEVC as x265 writes it (temporal sub-layers, `hvc1`) is decoded and interpolated the same
    /// way: 1 s at 120 fps at 1/8 speed, 30 fps → 240 frames, every other one made.
    @Test func hevcFromX265IsInterpolatedToo() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("x265.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120:duration=1", "-c:v", "libx265", "-x265-params",
            "log-level=error:temporal-layers=1", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", input,
        ])
        let out = dir.path("slow.mp4")
        let r = try Tool.hfr(["export", input, out, "--speed", "0.125", "--fps", "30", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let video = try #require(try Tool.json(r.stdout)["video"] as? [String: Any])
        #expect(video["interpolatedFrames"] as? Int == 119)
        #expect(try FFprobe.count(out, decoding: true) == 240)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        try checkTag(out, method: "flow")
    }

    /// A time base as coarse as the frame rate (1/120 s for 120 fps, as `-video_track_timescale 120`
    /// writes it): the slots between frames lie within half a tick of one, and still get new
    /// pictures (none were made: every slot was taken for a captured frame).
    @Test func aTimeBaseOfOneFramePerTickIsInterpolatedToo() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("tick.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=192x128:rate=120:duration=0.5", "-c:v", "libx264", "-pix_fmt",
            "yuv420p",
            "-video_track_timescale", "120", input,
        ])
        let out = dir.path("slow.mp4")
        let r = try Tool.hfr([
            "export", input, out, "--speed", "0.125", "--fps", "30", "--interpolate", "blend", "--json",
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let video = try #require(try Tool.json(r.stdout)["video"] as? [String: Any])
        #expect(video["interpolatedFrames"] as? Int == 59)
        #expect(video["framesOut"] as? Int == 120)
    }

    /// `--reencode never` cannot make frames: refused as other refusals are, naming O/C.
    @Test func neverIsRefusedNamingTheSlowestLosslessSpeed() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("never.mp4")
        let r = try Tool.hfr([
            "export", try Self.panning.get(), out, "--speed", "0.125", "--fps", "30", "--reencode", "never",
        ])
        #expect(r.status == 65)
        #expect(r.stderr.contains("slowest lossless speed at 30 fps: --speed 0.25"), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Peak RSS (GNU time's %M: the kernel's high-water mark, VmHWM) of a 1080p flow export stays
    /// flat as the output grows from 2 s to 8 s: the re-encoder holds two decoded frames and a few
    /// made pictures, never the clip. (`scripts/bench interpolate-rss` measures 10 s and 60 s.)
    @Test func peakMemoryOfA1080pInterpolatedExportIsFlat() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in-1080p.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=120:duration=1", "-c:v", "libx264", "-preset",
            "ultrafast", "-pix_fmt", "yuv420p", input,
        ])
        var peaks: [Int] = []
        // Every other output frame is made, but for the last of the whole clip (no captured frame after it).
        for (seconds, made) in [("0.25", 30), ("1", 119)] {
            let out = dir.path("out-\(seconds).mp4")
            let report = dir.path("time-\(seconds).txt")
            let r = try Tool.run(
                "/usr/bin/time",
                [
                    "-o", report, "-f", "%M", Tool.hfrPath, "export", input, out, "--speed", "0.125", "--fps", "30",
                    "--range", "0-\(seconds)", "--json",
                ])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let json = try Tool.json(r.stdout)
            #expect((json["video"] as? [String: Any])?["interpolatedFrames"] as? Int == made)
            let text = try String(contentsOfFile: report, encoding: .utf8)
            peaks.append(Int(text.split(separator: "\n").last.map(String.init) ?? "") ?? -1)
        }
        // 60 then 240 output frames: the longer export may not hold more pictures (a 1080p I420
        // picture is 3 MB; 16 MB is room for allocator noise, not for a growing window).
        #expect(peaks[0] > 0 && peaks[1] - peaks[0] < 16 * 1024, "peak RSS kB: \(peaks)")
    }

    /// The output's `com.hfr.interpolated` tag, as ffprobe and `hfr probe` read it.
    func checkTag(_ path: String, method: String?) throws {
        let tags = try Tool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path])
        let lines = tags.stdout.lowercased().split(separator: "\n").filter { $0.contains("com.hfr.interpolated") }
        #expect(lines == (method.map { ["tag:com.hfr.interpolated=\($0)"] } ?? []), "\(tags.stdout)")
        let probe = try Tool.hfr(["probe", "--json", path])
        let video = try #require(try Tool.json(probe.stdout)["video"] as? [String: Any])
        #expect(video["interpolation"] as? String == method)
        let text = try Tool.hfr(["probe", path])
        #expect(text.stdout.contains("Interpolated:") == (method != nil), "\(text.stdout)")
    }

    /// Decoded pictures against the source's: a captured frame's slot is nearest to that frame; a
    /// repeated slot to the earlier frame; a made picture differs from both neighbours by far more than
    /// the re-encode's own error on captured frames, and a blend is nearer to their average.
    func checkPictures(input: String, output: String, method: String, in dir: TemporaryDirectory) throws {
        let source = try Pictures(input, in: dir)
        let exported = try Pictures(output, in: dir)
        #expect(source.count == 240 && exported.count == 480)
        guard source.count == 240, exported.count == 480 else { return }
        var noise: [Double] = []
        for i in stride(from: 0, to: 480, by: 2) {
            let k = i / 2
            noise.append(exported.difference(i, source, k))
            #expect(source.nearest(to: exported.frame(i), around: k) == k, "slot \(i)")
        }
        let baseline = noise.sorted()[noise.count / 2]
        for i in stride(from: 1, to: 479, by: 2) {
            let (a, b) = (i / 2, i / 2 + 1)
            if method == "repeat" {
                #expect(source.nearest(to: exported.frame(i), around: a) == a, "slot \(i)")
                continue
            }
            let (da, db) = (exported.difference(i, source, a), exported.difference(i, source, b))
            #expect(da > 2 * baseline && db > 2 * baseline, "slot \(i): \(da), \(db) (noise \(baseline))")
            if method == "blend" {
                let (fa, fb) = (source.frame(a), source.frame(b))
                let average = fa.indices.map { UInt8((Int(fa[$0]) + Int(fb[$0]) + 1) / 2) }
                #expect(Pictures.difference(exported.frame(i), average) < min(da, db), "slot \(i)")
            }
        }
    }
}

/// A file's pictures decoded by ffmpeg as 8-bit luma.
struct Pictures {
    let bytes: [UInt8]
    let frameSize: Int

    init(_ path: String, in dir: TemporaryDirectory) throws {
        let raw = dir.path(URL(fileURLWithPath: path).lastPathComponent + ".gray")
        try ExportInputs.ffmpeg(["-i", path, "-map", "0:v:0", "-f", "rawvideo", "-pix_fmt", "gray", raw])
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        frameSize = ExportInterpolationTests.size.width * ExportInterpolationTests.size.height
        try FileManager.default.removeItem(atPath: raw)
    }

    var count: Int { bytes.count / frameSize }

    func frame(_ i: Int) -> [UInt8] { Array(bytes[i * frameSize..<(i + 1) * frameSize]) }

    /// Mean absolute difference of frame `i` and frame `j` of `other`.
    func difference(_ i: Int, _ other: Pictures, _ j: Int) -> Double {
        Pictures.difference(frame(i), other.frame(j))
    }

    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var sum = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for i in 0..<a.count { sum &+= abs(Int(a[i]) &- Int(b[i])) }
            }
        }
        return Double(sum) / Double(max(1, a.count))
    }

    /// Which of the frames `k − 1 … k + 1` is nearest to `picture`.
    func nearest(to picture: [UInt8], around k: Int) -> Int {
        let candidates = max(0, k - 1)...min(count - 1, k + 1)
        return candidates.min { Pictures.difference(picture, frame($0)) < Pictures.difference(picture, frame($1)) }!
    }
}
