import Foundation
import HFRTestSupport
import Testing

/// `hfr record --audio pulse:…` against a real PulseAudio server with a null sink, fed a 1 kHz tone
/// (record-with-pulse.sh starts the server and the player around the recording).
@Suite(.serialized) struct AudioDeviceTests {
    static let script = Fixtures.root.appendingPathComponent("Tests/EndToEndTests/record-with-pulse.sh").path
    static let hasPulse = FileManager.default.fileExists(atPath: "/usr/bin/pulseaudio")

    func record(_ arguments: [String], in dir: TemporaryDirectory) throws -> ToolResult {
        try Tool.run("bash", [AudioDeviceTests.script, Tool.hfrPath, dir.url.path] + arguments)
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
        let wav = dir.path("audio.wav")
        try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", out, "-map", "0:a", "-ac", "1", wav])
        let stat = try Tool.run("sox", [wav, "-n", "trim", "0.5", "2", "stat"]).stderr
        let line = stat.split(separator: "\n").first { $0.hasPrefix("Rough   frequency:") }
        let hz = Double(line?.split(separator: " ").last ?? "") ?? 0
        #expect(abs(hz - 1000) <= 20, "sox: \(stat)")
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
