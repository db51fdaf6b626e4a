import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    @Suite struct LoopbackAudio {
        @Test func toneFromTheLoopbackIsRecordedBesideTheCamera() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            // A player on the loopback's playback side; hfr captures its other side.
            let player = try BackgroundProcess(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
                    "-ac", "2", "-t", "15", "-f", "alsa", "hw:Loopback,0,0",
                ], directory: dir)
            defer {
                player.send(SIGTERM)
                _ = player.wait()
            }
            usleep(1_000_000)
            let out = dir.path("av.mp4")
            let r = try Tool.hfr([
                "record", out, "--device", Guest.camera, "--fps", "60", "--duration", "5", "--audio",
                "alsa:hw:Loopback,1,0",
                "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let wav = dir.path("av.wav")
            let x = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-vn", "-ac", "1", wav])
            #expect(x.status == 0, "\(x.stderr)")
            // sox measures the tone independently of hfr and FFmpeg.
            let stat = try Tool.run("sox", [wav, "-n", "stat"])
            let line = stat.stderr.split(separator: "\n").first { $0.hasPrefix("Rough   frequency:") }
            let frequency = line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            #expect(abs(frequency - 1000) <= 10, "sox: \(stat.stderr)")
            let rms = stat.stderr.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude:") }
            let amplitude = rms.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            // lavfi's sine has amplitude 1/8; its mono-to-stereo upmix puts it at -3 dB in each
            // channel: RMS 0.125 · 0.7071 / √2 = 0.0625 when the tone fills the whole recording.
            let toneRMS = 0.125 * 0.5.squareRoot() / 2.0.squareRoot()
            #expect(amplitude > 0.9 * toneRMS, "the tone fills the recording, no silence: \(rms ?? "")")
            let videoStart = Double(try Guest.stream(out, "v:0", "start_time")) ?? 99
            let audioStart = Double(try Guest.stream(out, "a:0", "start_time")) ?? 99
            #expect(abs(videoStart - audioStart) <= 1.0 / 60, "video \(videoStart) s, audio \(audioStart) s")
            // The audio ends with the video: 5 s, or a few frames less when vivid (emulated, with the
            // player beside it) skipped the last slots before the limit.
            let audioDuration = Double(try Guest.stream(out, "a:0", "duration")) ?? 0
            let videoDuration = Double(try Guest.stream(out, "v:0", "duration")) ?? 0
            #expect(videoDuration > 4.8 && videoDuration < 5 + 1e-6, "video lasts \(videoDuration) s")
            #expect(
                abs(audioDuration - videoDuration) <= 1.0 / 60 + 0.03,
                "audio lasts \(audioDuration) s, video \(videoDuration) s")
            print("loopback tone: \(frequency) Hz, RMS \(amplitude), A/V start offset \(audioStart - videoStart) s")
        }
    }
}
