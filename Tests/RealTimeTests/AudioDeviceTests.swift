import Foundation
import HFRTestSupport
import Testing

/// `hfr record --audio pulse:…` against a real PulseAudio server with a null sink, fed a 1 kHz tone
/// (record-with-pulse.sh starts the server and the player around the recording).
@Suite(.serialized) struct AudioDeviceTests {
    static let script = Fixtures.root.appendingPathComponent("Tests/RealTimeTests/record-with-pulse.sh").path
    static let hasPulse = FileManager.default.fileExists(atPath: "/usr/bin/pulseaudio")

    /// `environment`: the script's HFR_PULSE_RATE (sink and tone rate) and HFR_PULSE_TONE (Hz).
    func record(_ arguments: [String], in dir: TemporaryDirectory, environment: [String] = []) throws -> ToolResult {
        try Tool.run(
            "/usr/bin/env", environment + ["bash", AudioDeviceTests.script, Tool.hfrPath, dir.url.path] + arguments)
    }

    @Test(.enabled(if: hasPulse, "needs pulseaudio (scripts/setup installs it)"))
    func recordsTheDeviceInSyncAndAsLongAsTheVideo() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        let r = try record(
            [
                "--source", "test", "--fps", "120", "--size", "320x240", "--duration", "3", "--audio",
                "pulse:hfrtest.monitor", out,
            ], in: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 360)
        let fields = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels,duration",
                "-of", "default=nw=1:nk=1", out,
            ]
        ).stdout.split(separator: "\n")
        #expect(fields.first == "2")
        #expect(abs((Double(fields.last ?? "") ?? 0) - 3) <= 1.0 / 120, "audio \(fields)")
        // The tone came through: sox measures its frequency independently.
        let tone = try MediaChecks.soxTone(out, trim: (0.5, 2))
        #expect(abs(tone.frequency - 1000) <= 20, "sox: \(tone.stat)")
    }

    /// `--audio-rate 96000` from PulseAudio (a 96 kHz null sink playing 30 kHz): ALAC at 96 kHz,
    /// the tone there as sox measures it, audio as long as
    /// the video (the fragmented file's ALAC carries no sample durations; the finalizer restores them).
    @Test(.enabled(if: hasPulse, "needs pulseaudio (scripts/setup installs it)"))
    func highRateDeviceIsRecordedLosslessly() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        let r = try record(
            [
                "--source", "test", "--fps", "60", "--size", "320x240", "--duration", "2", "--audio",
                "pulse:hfrtest.monitor", "--audio-rate", "96000", out,
            ], in: dir, environment: ["HFR_PULSE_RATE=96000", "HFR_PULSE_TONE=30000"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try MediaChecks.entry(out, stream: "a:0", "codec_name,sample_rate") == "alac,96000")
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 2) <= 1.0 / 60, "audio vs 2 s of video")
        let tone = try MediaChecks.soxTone(out, trim: (0.5, 1))
        #expect(abs(tone.frequency - 30000) <= 300, "sox: \(tone.stat)")
    }

    @Test(.enabled(if: hasPulse, "needs pulseaudio (scripts/setup installs it)"))
    func unknownAudioDeviceIsUnavailable() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        let r = try record(["--source", "test", "--frames", "10", "--audio", "pulse:nope", out], in: dir)
        #expect(r.status == 69)
        #expect(r.stderr.hasPrefix("Error: pulse:nope: no such audio device"), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
