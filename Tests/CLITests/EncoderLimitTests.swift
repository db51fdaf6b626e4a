import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Sizes the H.264 encoder cannot take are refused before any work, in one line, with nothing left.
@Suite struct EncoderLimitTests {
    /// 4352x2176 is 36992 macroblocks, 128 past level 5.2's 36864: x264 encodes it (level 6), a copy
    /// keeps it, a delivery re-encode (libx264) writes it, and a re-encode through OpenH264 would fail
    /// after decoding began.
    @Test func reencodingAFrameBeyondLevel52IsBadDataNamingTheFile() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("wide.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=4352x2176:rate=120", "-frames:v", "8", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", input,
        ])
        let r = try Tool.hfr([
            "export", input, dir.path("out.mp4"), "--fps", "30", "--reencode", "always", "--codec", "openh264",
        ])
        #expect(r.status == 65, "stderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("export: ") }
        #expect(
            lines == [
                "Error: \(input): needs re-encoding, but its 4352x2176 video is beyond H.264 level 5.2: "
                    + "36992 macroblocks of 16x16, at most 36864 (e.g. 4096x2304, 3840x2160 or 7680x1080)"
            ], "\(r.stderr)")
        #expect(!r.stderr.contains("OpenH264"))
        #expect(try dir.contents() == ["wide.mp4"])

        let x264 = try Tool.hfr(["export", input, dir.path("x264.mp4"), "--fps", "30", "--reencode", "always"])
        #expect(x264.status == 0, "stderr: \(x264.stderr)")
        #expect(try MediaChecks.entry(dir.path("x264.mp4"), stream: "v:0", "codec_name,width") == "h264,4352")

        // A lossless conform of the same file does not meet the encoder.
        let copy = try Tool.hfr(["export", input, dir.path("copy.mp4"), "--conform", "30"])
        #expect(copy.status == 0, "stderr: \(copy.stderr)")
        #expect(try MediaChecks.entry(dir.path("copy.mp4"), stream: "v:0", "width") == "4352")
    }

    /// The largest frame level 5.2 holds records; one macroblock row more is a usage error.
    @Test func recordTakesTheLargestLevel52FrameAndRefusesMore() throws {
        let dir = try TemporaryDirectory()
        let ok = try Tool.hfr(["record", "--source", "test", "--size", "4096x2304", "--frames", "2", dir.path("a.mp4")])
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        #expect(try MediaChecks.entry(dir.path("a.mp4"), stream: "v:0", "height") == "2304")
        let over = try Tool.hfr([
            "record", "--source", "test", "--size", "4096x2320", "--frames", "2", dir.path("b.mp4"),
        ])
        #expect(over.status == 64)
        #expect(over.stderr.hasPrefix("Error: --size 4096x2320 is beyond H.264 level 5.2: 37120 macroblocks"))
        #expect(try dir.contents() == ["a.mp4"])
    }
}
