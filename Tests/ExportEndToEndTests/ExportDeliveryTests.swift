import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Exports a filmmaker would deliver: re-encodes with an offline encoder at a chosen quality, the
/// motion blur of a shutter computed from the capture, measured against FFmpeg doing the same.
@Suite struct ExportDeliveryTests {
    /// PSNR ("average", over Y, U and V) of `path`'s frames against `reference`'s, frame by frame in
    /// order, whatever their times; -1 when ffmpeg says none.
    static func psnr(_ path: String, _ reference: String) throws -> Double {
        let r = try Tool.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-i", path, "-i", reference, "-lavfi",
                "[0:v]settb=1/240,setpts=N[a];[1:v]settb=1/240,setpts=N[b];[a][b]psnr", "-f", "null", "-",
            ])
        guard let range = r.stderr.range(of: "average:") else { return -1 }
        let text = r.stderr[range.upperBound...].prefix { $0 != " " }
        return text == "inf" ? .infinity : Double(text) ?? -1
    }

    /// A 240 fps clip tagged as captured at 240 fps: 320x180, 1 s, moving pattern, stored losslessly:
    /// 8-bit 4:2:0 H.264, or with `tenBit` 10-bit 4:2:2 HEVC (averaged as 16-bit words).
    static func clip240(in dir: TemporaryDirectory, tenBit: Bool = false) throws -> String {
        let input = dir.path("c240.mp4")
        let codec =
            tenBit
            ? [
                "-c:v", "libx265", "-x265-params", "lossless=1:log-level=error", "-pix_fmt", "yuv422p10le", "-tag:v",
                "hvc1",
            ]
            : ["-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"]
        try ExportInputs.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=240", "-t", "1"] + codec + [
                "-metadata", "com.android.capture.fps=240", input,
            ])
        return input
    }

    /// 240 fps shown at 24 fps with a 180° (360°) shutter: each output frame is the average of 5
    /// (10) captured frames, FFmpeg's `tmix` of the same frames, to within rounding; 8-bit 4:2:0 and
    /// 10-bit 4:2:2 pictures.
    @Test(arguments: [(180, 5, false), (360, 10, true)])
    func shutterAveragesTheFramesItSeesAsTmixDoes(angle: Int, frames: Int, tenBit: Bool) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.clip240(in: dir, tenBit: tenBit)
        let out = dir.path("blur.mkv")
        let r = try Tool.hfr(["export", input, out, "--fps", "24", "--shutter", String(angle), "--codec", "ffv1"])
        #expect(r.status == 0, "\(r.stderr)")
        let reference = dir.path("tmix.mkv")
        try ExportInputs.ffmpeg([
            "-i", input, "-vf", "tmix=frames=\(frames),select='eq(mod(n\\,10)\\,\(frames - 1))'", "-fps_mode",
            "passthrough", "-c:v", "ffv1", reference,
        ])
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 24)
        #expect(try Self.psnr(out, reference) >= 45)
        // Not the unblurred frames: a shutter that did nothing would fail here.
        let sharp = dir.path("sharp.mkv")
        try ExportInputs.ffmpeg([
            "-i", input, "-vf", "select='not(mod(n\\,10))'", "-fps_mode", "passthrough", "-c:v", "ffv1", sharp,
        ])
        #expect(try Self.psnr(out, sharp) < 35)
    }

    /// 240 → 25 fps at 180°: each window covers 4.8 captured frames, starting 9.6 frames apart, so
    /// the frames at its edges count by the part of them it covers. Checked against the exact
    /// weighted average of the decoded frames.
    @Test func shutterWeighsFramesAtTheEdgesExactly() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.clip240(in: dir)
        let out = dir.path("blur25.mkv")
        let r = try Tool.hfr(["export", input, out, "--fps", "25", "--shutter", "180", "--codec", "ffv1"])
        #expect(r.status == 0, "\(r.stderr)")
        let size = 320 * 180 * 3 / 2
        func frames(_ path: String) throws -> [[UInt8]] {
            let raw = dir.path(UUID().uuidString + ".yuv")
            try ExportInputs.ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
            return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<$0 + size]) }
        }
        let source = try frames(input)
        let made = try frames(out)
        #expect(source.count == 240 && made.count == 25)
        var worst = Double.infinity
        for (k, picture) in made.enumerated() {
            // Window [9.6k, 9.6k + 4.8) in captured frames, frame i exposed over [i, i + 1).
            let start = 9.6 * Double(k)
            let end = start + 4.8
            var sum = [Double](repeating: 0, count: size)
            var total = 0.0
            for i in Int(start)...min(source.count - 1, Int(end)) {
                let w = max(0, min(end, Double(i + 1)) - max(start, Double(i)))
                guard w > 0 else { continue }
                total += w
                for j in 0..<size { sum[j] += w * Double(source[i][j]) }
            }
            var squared = 0.0
            for j in 0..<size {
                let d = (sum[j] / total).rounded() - Double(picture[j])
                squared += d * d
            }
            let mse = squared / Double(size)
            worst = min(worst, mse == 0 ? .infinity : 10 * log10(255 * 255 / mse))
        }
        #expect(worst >= 45, "worst frame \(worst) dB")
    }

    /// The held-out benchmark in small: a zooming fractal beside a moving pattern captured at 240 fps
    /// (the truth), every 4th frame kept (60 fps), slowed 4× at 60 fps with optical flow. Lossless,
    /// hfr's frames are at least as close to the truth as FFmpeg's minterpolate (MCI); both written
    /// with libx264 at the same size, hfr's are too (hfr's CRF raised until it is no larger).
    @Test func flowDeliveryMatchesMinterpolateAtTheSameSize() throws {
        let dir = try TemporaryDirectory()
        let truth = dir.path("truth.mkv")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "mandelbrot=size=160x180:rate=240", "-f", "lavfi", "-i",
            "testsrc2=size=160x180:rate=240",
            "-filter_complex", "[0][1]hstack,format=yuv420p", "-t", "0.5", "-c:v", "ffv1", truth,
        ])
        let input = dir.path("in60.mp4")
        try ExportInputs.ffmpeg([
            "-i", truth, "-vf", "select='not(mod(n\\,4))',setpts=N/60/TB", "-r", "60", "-c:v", "libx264", "-qp", "0",
            "-metadata", "com.android.capture.fps=60", "-movflags", "+use_metadata_tags", input,
        ])
        let mci = dir.path("mci.mkv")
        try ExportInputs.ffmpeg([
            "-i", input, "-vf", "minterpolate=fps=240:mi_mode=mci,setpts=4*PTS", "-r", "60", "-c:v", "ffv1", mci,
        ])
        let lossless = dir.path("flow.mkv")
        let r = try Tool.hfr(["export", input, lossless, "--speed", "0.25", "--fps", "60", "--quality", "lossless"])
        #expect(r.status == 0, "\(r.stderr)")
        let mciScore = try Self.psnr(mci, truth)
        #expect(try Self.psnr(lossless, truth) >= mciScore, "minterpolate: \(mciScore) dB")

        let ffmpegOut = dir.path("mci-crf23.mp4")
        try ExportInputs.ffmpeg(["-i", mci, "-c:v", "libx264", "-crf", "23", ffmpegOut])
        let budget = try FileManager.default.attributesOfItem(atPath: ffmpegOut)[.size] as! Int
        var size = Int.max
        var crf = 22
        var out = ""
        while size > budget, crf < 30 {
            crf += 1
            out = dir.path("flow-crf\(crf).mp4")
            let e = try Tool.hfr(["export", input, out, "--speed", "0.25", "--fps", "60", "--quality", "crf:\(crf)"])
            #expect(e.status == 0, "\(e.stderr)")
            size = try FileManager.default.attributesOfItem(atPath: out)[.size] as! Int
        }
        #expect(size <= budget, "hfr \(size) bytes at CRF \(crf), ffmpeg \(budget)")
        let ffmpegScore = try Self.psnr(ffmpegOut, truth)
        #expect(try Self.psnr(out, truth) >= ffmpegScore, "ffmpeg + libx264 CRF 23: \(ffmpegScore) dB")
    }

    /// A 10-bit HDR (PQ, BT.2020) HEVC clip slowed with made frames stays 10-bit HEVC with its
    /// transfer; --codec and --quality choose otherwise, and a choice the output cannot hold is a
    /// usage error before any work.
    @Test func reencodeKeepsTenBitHDRAndTakesCodecAndQuality() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("pq.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=60", "-t", "0.5", "-c:v", "libx265", "-preset",
            "ultrafast", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020",
            "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-tag:v", "hvc1", input,
        ])
        let slow = dir.path("slow.mp4")
        let r = try Tool.hfr(["export", input, slow, "--speed", "0.5", "--fps", "60", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            try MediaChecks.entry(slow, stream: "v:0", "codec_name,pix_fmt,color_transfer,color_primaries")
                == "hevc,yuv420p10le,smpte2084,bt2020")
        let video = try Tool.json(r.stdout)["video"] as? [String: Any]
        #expect(video?["encoder"] as? String == "libx265" && video?["quality"] as? String == "crf:20")

        // Lossless H.264 from the same pictures: every frame decodes to the input's.
        let exact = dir.path("exact.mkv")
        let l = try Tool.hfr([
            "export", input, exact, "--fps", "60", "--reencode", "always", "--codec", "h264",
            "--quality", "lossless",
        ])
        #expect(l.status == 0, "\(l.stderr)")
        #expect(try MediaChecks.entry(exact, stream: "v:0", "codec_name,pix_fmt") == "h264,yuv420p10le")
        #expect(try Self.psnr(exact, input) == .infinity)

        // ProRes into MOV: 4:2:2 10-bit (422 HQ), the colour kept.
        let prores = dir.path("prores.mov")
        let p = try Tool.hfr(["export", input, prores, "--fps", "30", "--codec", "prores"])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(
            try MediaChecks.entry(prores, stream: "v:0", "codec_name,pix_fmt,color_transfer")
                == "prores,yuv422p10le,smpte2084")
        for (options, name, message) in [
            (["--codec", "prores"], "bad.mp4", "ProRes video cannot be written to MP4"),
            (["--quality", "crf:99"], "bad.mp4", "--quality must be"),
            (["--codec", "ffv1", "--quality", "crf:20"], "bad.mkv", "FFV1 is lossless only"),
        ] {
            let bad = try Tool.hfr(["export", input, dir.path(name), "--fps", "30"] + options)
            #expect(bad.status == 64 && bad.stderr.contains(message), "\(options): \(bad.stderr)")
        }
        #expect(try dir.contents().sorted() == ["exact.mkv", "pq.mp4", "prores.mov", "slow.mp4"])
    }
}
