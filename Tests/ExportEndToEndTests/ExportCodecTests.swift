import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Timestamp-only exports of codecs hfr does not parse (AV1, VP9, ProRes, MJPEG): stream-copied
/// into any container that holds them, refused naming one that does otherwise, and decoded into
/// hfr's H.264 where frames must change.
@Suite(.serialized) struct ExportCodecTests {
    /// A 120 fps input of `frames` frames made by ffmpeg with `codec` options.
    static func make(_ name: String, _ codec: [String], in dir: TemporaryDirectory, frames: Int = 24) throws -> String {
        let path = dir.path(name)
        try ExportInputs.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-frames:v", String(frames)] + codec + [path])
        return path
    }

    static let codecs: [(name: String, options: [String])] = [
        ("av1.mkv", ["-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-b:v", "200k"]),
        ("vp9.mkv", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "200k"]),
        ("prores.mov", ["-c:v", "prores_ks", "-profile:v", "0"]),
        ("mjpeg.mov", ["-c:v", "mjpeg", "-q:v", "5"]),
    ]

    /// Seconds the container says the file lasts (`format=duration`).
    static func formatDuration(_ path: String) throws -> Double {
        let r = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test(arguments: codecs)
    func conformCopiesEveryPacket(name: String, options: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(name, options, in: dir)
        let out = dir.path("conform." + URL(fileURLWithPath: name).pathExtension)
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect((try Tool.json(r.stdout)["video"] as? [String: Any])?["reencoded"] as? Bool == false)
        let packets = try MediaChecks.packets(input).map(\.hash)
        #expect(packets.count == 24)
        #expect(try MediaChecks.packets(out).map(\.hash) == packets)
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(try MediaChecks.entry(out, stream: "v:0", "avg_frame_rate") == "30/1")
        // 24 frames shown 1/30 s each: 4× as long as the 0.2 s input.
        #expect(abs(try Self.formatDuration(out) - 0.8) < 0.002)
        #expect(
            try MediaChecks.entry(out, stream: "v:0", "codec_tag_string")
                == MediaChecks.entry(input, stream: "v:0", "codec_tag_string"))
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// Every-frame speed segments and ranges are timestamp-only too.
    @Test func speedAndRangeCopyEveryKeptPacket() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make("mjpeg.mov", Self.codecs[3].options, in: dir)
        let all = try MediaChecks.packets(input)
        let slow = dir.path("slow.mov")
        let s = try Tool.hfr(["export", input, slow, "--speed", "1/4", "--fps", "30", "--audio", "mute"])
        #expect(s.status == 0, "stderr: \(s.stderr)")
        #expect(try MediaChecks.packets(slow).map(\.hash) == all.map(\.hash))
        #expect(try MediaChecks.entry(slow, stream: "v:0", "r_frame_rate") == "30/1")

        // Every MJPEG frame is a keyframe: the range is cut exactly at 6/120 s and 18/120 s.
        let ranged = dir.path("range.mov")
        let g = try Tool.hfr(["export", input, ranged, "--conform", "30", "--range", "0.05-0.15"])
        #expect(g.status == 0, "stderr: \(g.stderr)")
        #expect(try MediaChecks.packets(ranged).map(\.hash) == all[6..<18].map(\.hash))
        #expect(abs(try Self.formatDuration(ranged) - 0.4) < 0.002)
    }

    @Test func proResIntoMP4IsRefusedNamingMOV() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make("prores.mov", Self.codecs[2].options, in: dir, frames: 4)
        let r = try Tool.hfr(["export", input, dir.path("out.mp4"), "--conform", "30"])
        #expect(r.status == 65)
        #expect(r.stderr.split(separator: "\n").count == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("prores.mov: prores video cannot be copied into MP4; write .mov"), "\(r.stderr)")
        #expect(try dir.contents() == ["prores.mov"])
        // The same export into MOV works.
        #expect(try Tool.hfr(["export", input, dir.path("out.mov"), "--conform", "30"]).status == 0)
    }

    /// Where frames must change, anything FFmpeg decodes is re-encoded in its own codec family
    /// where MP4 stores it (VP9, AV1, 10-bit HEVC), else H.264 (10-bit 4:2:2 ProRes: High 4:2:2).
    @Test(arguments: [
        ("vp9.mkv", codecs[1].options, "vp9"), ("av1.mkv", codecs[0].options, "av1"),
        ("prores422hq.mov", ["-c:v", "prores_ks", "-profile:v", "3", "-pix_fmt", "yuv422p10le"], "h264"),
        ("hevc10.mp4", ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error"], "hevc"),
    ])
    func reencodeDecodesOtherCodecs(name: String, options: [String], codec: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(name, options, in: dir)
        let out = dir.path("fps60.mp4")
        let r = try Tool.hfr(["export", input, out, "--fps", "60"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try MediaChecks.entry(out, stream: "v:0", "codec_name") == codec)
        #expect(
            try MediaChecks.entry(out, stream: "v:0", "pix_fmt") == MediaChecks.entry(input, stream: "v:0", "pix_fmt"))
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 12)
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "60/1")
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        // The pictures are the input's: PSNR against the input's even frames.
        #expect(try Self.psnr(out, against: input) > 30)
    }

    /// Average PSNR (dB) of `path` against every second frame of the 120 fps `reference`.
    static func psnr(_ path: String, against reference: String) throws -> Double {
        let r = try Tool.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-i", path, "-i", reference, "-lavfi",
                "[1:v]select='not(mod(n\\,2))',setpts=N/60/TB,format=yuv420p[b];[0:v]setpts=N/60/TB[a];[a][b]psnr",
                "-f", "null", "-",
            ])
        guard let range = r.stderr.range(of: "average:") else { return -1 }
        return Double(r.stderr[range.upperBound...].prefix { $0 != " " }) ?? -1
    }
}
