import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `com.android.capture.fps` as Android writes it (float32, type 23) in what hfr writes, and read
/// back in both forms (float32 and the decimal text other tools write).
@Suite(.serialized) struct PhoneMetadataTests {
    @Test func recordingCarriesTheFloatCaptureRate() throws {
        let input = try ExportInputs.sixSeconds.get()
        #expect(try AndroidMetadata.captureRate(input) == 120)
        let item = try #require(try ExifTool.item("AndroidCaptureFps", in: input))
        #expect(item.value == "120")
        #expect(item.type == "Flags=0x17 (float)")
        // hfr's exact key stays text.
        #expect(try ExifTool.item("HfrCaptureFps", in: input)?.type == "Flags=0x1 (UTF-8)")
    }

    /// Frames per second of real time the output holds: 120 after a conform, 30 after `--fps 30`;
    /// float32 in MP4 and MOV, the decimal text in Matroska (which has no typed tags).
    @Test(arguments: [
        (["--conform", "30"], "mp4", Float(120)), (["--fps", "30"], "mp4", Float(30)),
        (["--conform", "30"], "mov", Float(120)), (["--conform", "30"], "mkv", Float(120)),
    ])
    func exportsWriteTheCaptureRateAsAndroidDoes(options: [String], container: String, rate: Float) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.\(container)")
        let r = try Tool.hfr(["export", try ExportInputs.sixSeconds.get(), out] + options)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let tags = try Tool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", out]
        ).stdout.lowercased()
        #expect(tags.contains("tag:com.android.capture.fps=\(Int(rate)).000000"))
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        if container == "mkv" {
            #expect(try AndroidMetadata.captureRate(out) == nil)
        } else {
            #expect(try AndroidMetadata.captureRate(out) == rate)
            #expect(try ExifTool.item("AndroidCaptureFps", in: out)?.type == "Flags=0x17 (float)")
        }
    }

    /// A 30 fps stream captured at 120 (hfr's `--conform 30` output) whose only capture tag is
    /// Android's, once as hfr writes it (float32) and once as ffmpeg writes it (text).
    @Test func probeReadsTheCaptureRateInBothForms() throws {
        let dir = try TemporaryDirectory()
        let conformed = dir.path("conformed.mp4")
        let r = try Tool.hfr(["export", try ExportInputs.sixSeconds.get(), conformed, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        // Float form: hfr's own key renamed (same length) so that only Android's is left.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: conformed))
        let key = try #require(bytes.range(of: Data("com.hfr.capture.fps".utf8)))
        #expect(bytes[key.upperBound...].range(of: Data("com.hfr.capture.fps".utf8)) == nil)
        bytes.replaceSubrange(key, with: Data("com.hfr.capture.off".utf8))
        let float = dir.path("float.mp4")
        try bytes.write(to: URL(fileURLWithPath: float))
        #expect(try ExifTool.item("AndroidCaptureFps", in: float)?.type == "Flags=0x17 (float)")
        // Text form, as ffmpeg (and other tools) write it.
        let text = dir.path("text.mp4")
        try ExportInputs.ffmpeg([
            "-i", conformed, "-map", "0", "-c", "copy", "-map_metadata", "-1", "-metadata",
            "com.android.capture.fps=120.000000", "-movflags", "+use_metadata_tags", text,
        ])
        #expect(try ExifTool.item("AndroidCaptureFps", in: text)?.type == "Flags=0x1 (UTF-8)")
        for file in [float, text] {
            let probe = try Tool.json(try Tool.hfr(["probe", "--json", file]).stdout)
            let video = probe["video"] as? [String: Any] ?? [:]
            #expect(video["captureFrameRate"] as? String == "120/1", "\(file)")
            #expect(video["captureFrameRateSource"] as? String == "com.android.capture.fps", "\(file)")
            #expect(video["playbackFrameRate"] as? String == "30/1", "\(file)")
        }
    }
}
