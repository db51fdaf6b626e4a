import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    @Suite struct LoopbackAudio {
        /// Plays a `frequency` tone at `rate` into the loopback's playback side (substream
        /// `substream`) while hfr records its capture side beside the camera with `options`.
        static func record(
            _ out: String, tone frequency: Int, rate: Int, substream: Int, seconds: Int, options: [String],
            in dir: TemporaryDirectory
        ) throws -> ToolResult {
            try Guest.resetFaults()
            let player = try BackgroundProcess(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i",
                    "sine=frequency=\(frequency):sample_rate=\(rate)", "-ac", "2", "-t", "\(seconds + 10)", "-f",
                    "alsa",
                    "hw:Loopback,0,\(substream)",
                ], directory: dir)
            defer {
                player.send(SIGTERM)
                _ = player.wait()
            }
            usleep(1_000_000)
            return try Tool.hfr(
                [
                    "record", out, "--device", Guest.camera, "--fps", "60", "--duration", "\(seconds)", "--audio",
                    "alsa:hw:Loopback,1,\(substream)",
                ] + options)
        }

        @Test func toneFromTheLoopbackIsRecordedBesideTheCamera() throws {
            let dir = try TemporaryDirectory()
            let out = dir.path("av.mp4")
            let r = try Self.record(
                out, tone: 1000, rate: 48000, substream: 0, seconds: 5, options: ["--json"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let probe = try Guest.probe(out)
            // sox measures the tone independently of hfr and FFmpeg.
            let tone = try MediaChecks.soxTone(out, rate: Double(probe.entry("audio", "sample_rate")))
            let (frequency, amplitude) = (tone.frequency, tone.rms)
            #expect(abs(frequency - 1000) <= 10, "sox: \(tone.stat)")
            // lavfi's sine has amplitude 1/8; its mono-to-stereo upmix puts it at -3 dB in each
            // channel: RMS 0.125 · 0.7071 / √2 = 0.0625 when the tone fills the whole recording.
            let toneRMS = 0.125 * 0.5.squareRoot() / 2.0.squareRoot()
            #expect(amplitude > 0.9 * toneRMS, "the tone fills the recording, no silence: RMS \(amplitude)")
            let videoStart = Double(probe.entry("video", "start_time")) ?? 99
            let audioStart = Double(probe.entry("audio", "start_time")) ?? 99
            #expect(abs(videoStart - audioStart) <= 1.0 / 60, "video \(videoStart) s, audio \(audioStart) s")
            // The audio ends with the video: 5 s, or a few frames less when vivid (emulated, with the
            // player beside it) skipped the last slots before the limit.
            let audioDuration = Double(probe.entry("audio", "duration")) ?? 0
            let videoDuration = Double(probe.entry("video", "duration")) ?? 0
            #expect(videoDuration > 4.8 && videoDuration < 5 + 1e-6, "video lasts \(videoDuration) s")
            #expect(
                abs(audioDuration - videoDuration) <= 1.0 / 60 + 0.03,
                "audio lasts \(audioDuration) s, video \(videoDuration) s")
            print("loopback tone: \(frequency) Hz, RMS \(amplitude), A/V start offset \(audioStart - videoStart) s")
        }

        /// A bat detector's rate: a 40 kHz tone played at 192 kHz into the loopback's second
        /// substream, recorded with `--audio-rate 192000` beside the camera. The file holds it
        /// losslessly (ALAC at 192 kHz; AAC would have cut it off below 20 kHz), as sox measures.
        @Test func ultrasoundAt192kHzIsRecordedLosslessly() throws {
            let dir = try TemporaryDirectory()
            let out = dir.path("bat.mp4")
            let r = try Self.record(
                out, tone: 40000, rate: 192000, substream: 1, seconds: 3, options: ["--audio-rate", "192000"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let probe = try Guest.probe(out)
            #expect(probe.entry("audio", "codec_name") == "alac")
            #expect(probe.entry("audio", "sample_rate") == "192000")
            let tone = try MediaChecks.soxTone(out, rate: Double(probe.entry("audio", "sample_rate")))
            let frequency = tone.frequency
            #expect(abs(frequency - 40000) <= 400, "sox: \(tone.stat)")
            let audioDuration = Double(probe.entry("audio", "duration")) ?? 0
            let videoDuration = Double(probe.entry("video", "duration")) ?? 0
            #expect(
                abs(audioDuration - videoDuration) <= 1.0 / 60 + 0.03,
                "audio \(audioDuration) s, video \(videoDuration) s")
            print("loopback at 192 kHz: \(frequency) Hz, audio \(audioDuration) s, video \(videoDuration) s")
        }
    }
}
