import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Issue 42, item 4: a failure is classified where it happens and said once, naming the stage that
/// ran. An encoder that refuses its settings is an option error (64), never "corrupt input"; a track
/// the input never describes is bad input (65), named as such, not as the resampler it would reach.
@Suite struct FailureStageTests {
    /// x265 takes CRF 0–51: asked for 63 it fails when it opens. That was exit 65 "video decoder
    /// configuration is corrupt", the encoder's refusal blamed on the input.
    @Test func anEncoderThatRefusesItsSettingsIsAnOptionErrorNotCorruptInput() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-frames:v", "15", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", input,
        ])
        let r = try Tool.hfr([
            "export", input, dir.path("out.mp4"), "--fps", "60", "--codec", "hevc", "--quality", "crf:63",
        ])
        #expect(r.status == 64, "\(r.stderr)")
        let error = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("Error: ") })
        #expect(!error.contains("corrupt") && !error.contains("decoder"), "\(error)")
        #expect(error.contains("x265") || error.contains("hevc") || error.contains("HEVC"), "\(error)")
        #expect(try dir.contents() == ["in.mp4"])
    }

    /// An MPEG-TS whose audio moves to a new PID half-way (two segments spliced with their
    /// continuity counters running on, as a broadcast splice does). Its new PID's stream was never
    /// described (0 Hz, no channels): a conform that stretches the audio (spectral) failed with
    /// `audio: processing("varispeed: swr_init: Invalid argument")`, a copy (speed 1) with the
    /// muxer's `avformat_write_header`. Since the demuxer reads every program table as ffmpeg does
    /// (`scan_all_pmts`, issue 41 item 11) the new PID is described (48 kHz): the file is valid and
    /// both audio tracks come out, each with its parameters.
    @Test(arguments: ["24", "30"]) func anAudioTrackOnANewPIDComesOut(conform: String) throws {
        let dir = try TemporaryDirectory()
        var segments: [Data] = []
        for (pid, offset) in [("0x101", "0"), ("0x102", "2")] {
            let path = dir.path("part-\(pid).ts")
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi", "-i", "sine=r=48000", "-t", "2",
                "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0", "-g", "30", "-c:a", "aac",
                "-streamid", "0:0x100", "-streamid", "1:\(pid)", "-output_ts_offset", offset, path,
            ])
            segments.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            try FileManager.default.removeItem(atPath: path)
        }
        let input = dir.path("spliced.ts")
        try FailureStageTests.splice(segments).write(to: URL(fileURLWithPath: input))
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", conform])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("(2 tracks)"), "\(r.stderr)")
        let rates = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "a", "-show_entries", "stream=sample_rate", "-of", "csv=p=0", out])
        #expect(rates.stdout.split(separator: "\n") == ["48000", "48000"], "\(rates.stdout)")
    }

    /// The transport packets of `segments` one after another, each PID's continuity counter running
    /// on from the segment before (else the demuxer drops the packet after the join as corrupt).
    static func splice(_ segments: [Data]) -> Data {
        var counters: [Int: UInt8] = [:]
        var out = Data()
        for (n, segment) in segments.enumerated() {
            var bytes = [UInt8](segment)
            for start in stride(from: 0, to: bytes.count - 187, by: 188) where bytes[start + 3] & 0x10 != 0 {
                let pid = Int(bytes[start + 1] & 0x1F) << 8 | Int(bytes[start + 2])
                if n > 0 {
                    let next = ((counters[pid] ?? 15) + 1) & 0x0F
                    bytes[start + 3] = bytes[start + 3] & 0xF0 | next
                }
                counters[pid] = bytes[start + 3] & 0x0F
            }
            out.append(contentsOf: bytes)
        }
        return out
    }
}
