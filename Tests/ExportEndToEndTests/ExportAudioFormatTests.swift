import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Retimed audio keeps what the source had where the container stores it: lossless stays lossless
/// in its own codec (PCM in MOV and Matroska, FLAC in Matroska, ALAC in MOV), at its rate, its bit
/// depth and its channel layout; AAC keeps its channels (6.1 included, which used to become a
/// stereo downmix). Before, FLAC and ALAC were encoded to 16-bit-sourced AAC in the default layout.
/// Through a conform (2× slower) and a ramp, checked with ffprobe: codec, rate, depth, layout, and the audio
/// as long as the video to one audio frame.
@Suite struct ExportAudioFormatTests {
    struct Source: Sendable, CustomStringConvertible {
        let name: String
        let rate: Int
        let layout: String
        let codec: [String]
        /// What ffprobe says of input and output: codec, rate, bits per sample, layout.
        let expected: String
        var description: String { name }
    }

    static let sources = [
        Source(
            name: "pcm96.mov", rate: 96000, layout: "stereo", codec: ["-c:a", "pcm_s24le"],
            expected: "pcm_s24le,96000,24,stereo,2"),
        Source(
            name: "pcm192.mkv", rate: 192000, layout: "stereo", codec: ["-c:a", "pcm_s24le"],
            expected: "pcm_s24le,192000,24,stereo,2"),
        Source(
            name: "flac51side.mkv", rate: 96000, layout: "5.1(side)", codec: ["-c:a", "flac", "-sample_fmt", "s32"],
            expected: "flac,96000,24,5.1(side),6"),
        Source(
            name: "alac71wide.mov", rate: 48000, layout: "7.1(wide)", codec: ["-c:a", "alac", "-sample_fmt", "s32p"],
            expected: "alac,48000,24,7.1(wide),8"),
        Source(
            name: "flac71.mkv", rate: 48000, layout: "7.1", codec: ["-c:a", "flac"], expected: "flac,48000,16,7.1,8"),
        Source(name: "aac51.mp4", rate: 48000, layout: "5.1", codec: ["-c:a", "aac"], expected: "aac,48000,0,5.1,6"),
        Source(name: "aac71.mkv", rate: 48000, layout: "7.1", codec: ["-c:a", "aac"], expected: "aac,48000,0,7.1,8"),
        Source(
            name: "aac61.mkv", rate: 48000, layout: "6.1", codec: ["-c:a", "aac"], expected: "aac,48000,0,unknown,7"),
    ]

    /// codec, sample rate, bits per sample (bits_per_raw_sample, else bits_per_sample; 0 for lossy),
    /// channel layout (Matroska stores none for PCM: then stereo for two channels; FFmpeg reads AAC's
    /// 6.1, written with a PCE, as none), channels.
    static func audioFormat(_ path: String) throws -> String {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries",
                "stream=codec_name,sample_rate,bits_per_raw_sample,bits_per_sample,channel_layout,channels", "-of",
                "json", path,
            ])
        let stream = try #require((try Tool.json(r.stdout)["streams"] as? [[String: Any]])?.first)
        let codec = stream["codec_name"] as? String ?? "?"
        let raw = Int(stream["bits_per_raw_sample"] as? String ?? "") ?? 0
        let bits = raw > 0 ? raw : stream["bits_per_sample"] as? Int ?? 0
        var layout = stream["channel_layout"] as? String ?? "unknown"
        if layout == "unknown", stream["channels"] as? Int == 2 { layout = "stereo" }
        return
            "\(codec),\(stream["sample_rate"] as? String ?? "?"),\(bits),\(layout),\(stream["channels"] as? Int ?? 0)"
    }

    @Test(arguments: sources, [["--conform", "60"], ["--ramp", "0-0.25@1,0.25-@0.5"]])
    func retimedAudioKeepsCodecRateDepthAndLayout(source: Source, options: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path(source.name)
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=120:duration=0.5", "-f", "lavfi", "-i",
                "sine=f=440:r=\(source.rate):d=0.5,aformat=channel_layouts=\(source.layout)", "-c:v", "libx264",
                "-preset", "ultrafast",
            ] + source.codec + [input])
        #expect(try Self.audioFormat(input) == source.expected)
        let out = dir.path("out." + (source.name.split(separator: ".").last.map(String.init) ?? "mkv"))
        let r = try Tool.hfr(["export", input, out] + options)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("retimed into"), "\(r.stderr)")
        #expect(try Self.audioFormat(out) == source.expected)
        let video = try ExportValidInputTests.end(out, stream: "v:0")
        let audio = try ExportValidInputTests.end(out, stream: "a:0")
        #expect(abs(audio - video) <= 1024.0 / Double(source.rate) + 0.001, "audio ends \(audio) s, video \(video) s")
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// A bat detector's recording: a 40 kHz call at 192 kHz beside 240 fps video. Slowed 8× with
    /// `--audio varispeed` it comes out at 5 kHz, audible, at the source's 192 kHz in Matroska's PCM
    /// and at AAC's 96 kHz in MP4 (its call well below either Nyquist).
    @Test(arguments: [("out.mkv", "pcm_s24le,192000"), ("out.mp4", "aac,96000")])
    func ultrasoundSlowedEightTimesIsAudible(output: String, format: String) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("bat.mkv")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=240:duration=0.5", "-f", "lavfi", "-i",
            "sine=f=40000:r=192000:d=0.5", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s24le", input,
        ])
        let out = dir.path(output)
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--audio", "varispeed"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try MediaChecks.entry(out, stream: "a:0", "codec_name,sample_rate") == format)
        let call = try MediaChecks.audioAnalysis(out, from: 1, length: 2)
        #expect(abs(call.frequency - 5000) < 50, "measured \(call.frequency) Hz")
    }
}
