import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Audio through `hfr export`: pitch kept or following speed, sound placed where the time map puts
/// it, exact lengths. Measured independently with numpy FFTs on ffmpeg's decoding.
@Suite(.serialized) struct ExportAudioTests {
    @Test(arguments: [("spectral", 440.0), ("time-domain", 440.0), ("varispeed", 110.0)])
    func fourTimesSlowerKeepsPitchOrFollowsSpeed(algorithm: String, expected: Double) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        let r = try Tool.hfr([
            "export", try ExportInputs.tenSeconds.get(), out, "--conform", "30", "--audio", algorithm, "--json",
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let audio = try MediaChecks.audioAnalysis(out, from: 10, length: 2)
        #expect(abs(audio.frequency - expected) <= expected * 0.01, "measured \(audio.frequency) Hz")
        // The tone plays from the first sample: no start delay left in the output.
        #expect(audio.firstLoud < 0.005, "first sound at \(audio.firstLoud) s")
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 40) <= 1024.0 / 48000)
        let json = try Tool.json(r.stdout)["audio"] as? [String: Any]
        #expect(json?["samples"] as? Int == 40 * 48000)
        #expect(json?["algorithm"] as? String == algorithm)
    }

    /// Short tone bursts at known source times land at 4× those times: the content, not just the
    /// track, starts in sync, to 5 ms in every mode (WSOLA's windows centred on their place; the
    /// bursts rise too slowly to count as onsets).
    @Test(arguments: ["spectral", "time-domain", "varispeed"])
    func stretchedSoundStaysInSync(algorithm: String) throws {
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.sixSeconds(withAudio: Self.bursts, in: dir, name: "bursts.mp4")
        let source = try MediaChecks.audioAnalysis(input)
        #expect(source.bursts.count == Self.burstTimes.count)
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--audio", algorithm])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let exported = try MediaChecks.audioAnalysis(out).bursts
        #expect(exported.count == source.bursts.count)
        for (o, s) in zip(exported, source.bursts) {
            #expect(abs(o - 4 * s) < 0.005, "burst at \(s) s came out at \(o) s, expected \(4 * s) s")
        }
        // The audio track itself starts with the video.
        #expect(
            try MediaChecks.entry(out, stream: "a:0", "start_time")
                == MediaChecks.entry(out, stream: "v:0", "start_time"))
    }

    @Test(arguments: ["spectral", "time-domain"])
    func speechStretchedFourTimesKeepsItsExactLength(algorithm: String) throws {
        let dir = try TemporaryDirectory()
        let wav = dir.path("speech.wav")
        let spoken = try Tool.run(
            "espeak-ng",
            ["-w", wav, "High frame rate recording on Linux keeps every frame, and slow motion keeps the voice."])
        #expect(spoken.status == 0, "espeak-ng: \(spoken.stderr)")
        let input = dir.path("speech.mp4")
        try ExportInputs.ffmpeg([
            "-i", try ExportInputs.sixSeconds.get(), "-i", wav, "-map", "0:v", "-map", "1:a", "-c:v", "copy",
            "-af", "apad", "-ar", "48000", "-c:a", "aac", "-t", "6", "-map_metadata", "0", "-movflags",
            "+use_metadata_tags", input,
        ])
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--audio", algorithm, "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        // Exactly four times the video's 6 s, to the sample, as the container states it.
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 24) < 0.5 / 48000)
        #expect((try Tool.json(r.stdout)["audio"] as? [String: Any])?["samples"] as? Int == 24 * 48000)
        // The voice spans four times as long.
        let source = try MediaChecks.audioAnalysis(input)
        let exported = try MediaChecks.audioAnalysis(out)
        let span = source.lastLoud - source.firstLoud
        #expect(abs((exported.lastLoud - exported.firstLoud) - 4 * span) < 0.03 * 4 * span)
    }

    /// Stereo goes through one Rubber Band lane per channel, run in parallel: each channel keeps its
    /// own pitch and both stay exactly as long as the video.
    @Test func stereoChannelsStayApartAndAligned() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("stereo.mp4")
        try ExportInputs.ffmpeg([
            "-i", try ExportInputs.sixSeconds.get(), "-f", "lavfi", "-i",
            "aevalsrc=0.5*sin(2*PI*440*t)|\(Self.bursts.replacingOccurrences(of: "440", with: "660")):s=48000:c=stereo:d=6",
            "-map", "0:v",
            "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-map_metadata", "0", "-movflags", "+use_metadata_tags",
            input,
        ])
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try MediaChecks.entry(out, stream: "a:0", "channels") == "2")
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 24) < 0.5 / 48000)
        let left = try MediaChecks.audioAnalysis(out, from: 10, length: 2, channel: 0)
        let right = try MediaChecks.audioAnalysis(out, from: 3.8, length: 0.4, channel: 1)
        #expect(abs(left.frequency - 440) < 4.4, "left \(left.frequency) Hz")
        #expect(abs(right.frequency - 660) < 6.6, "right \(right.frequency) Hz")
        // The right channel's bursts land at 4× their source times, like mono ones.
        #expect(right.bursts.count == Self.burstTimes.count)
        for (t, s) in zip(right.bursts, Self.burstTimes) {
            #expect(abs(t - 4 * s) < 0.005, "burst at \(s) s came out at \(t) s")
        }
    }

    /// A 12× speed-up (--conform 360 of 30 fps) puts Rubber Band 3.1's standard window past its
    /// buffer (see `RubberBandWindow`); glibc's MALLOC_PERTURB_=255 fills freed heap with 0xff, so
    /// what it read there is NaN every time and the AAC encoder refused it ("avcodec_send_frame:
    /// Invalid argument", exit 65, at every rate here). Now the audio is as long as the video and a
    /// tone.
    @Test(arguments: [44100, 48000, 96000])
    func twelveTimesFasterAudioReadsOnlyItsOwnBuffer(rate: Int) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=4", "-f", "lavfi", "-i",
            "sine=f=440:r=\(rate):d=4", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-ar", "\(rate)",
            input,
        ])
        let out = dir.path("out.mp4")
        let r = try Tool.run(
            "/usr/bin/env", ["MALLOC_PERTURB_=255", Tool.hfrPath, "export", input, out, "--conform", "360"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 4.0 / 12) < 1024.0 / Double(rate))
        let tone = try MediaChecks.audioAnalysis(out)
        #expect(abs(tone.frequency - 440) < 8.8, "measured \(tone.frequency) Hz")
    }

    static let burstTimes = [1.0, 1.9, 2.1, 3.9, 4.1]

    /// ffmpeg `aevalsrc`: 440 Hz bursts (Gaussian, σ ≈ 21 ms) at `burstTimes`.
    static var bursts: String {
        "0.8*sin(2*PI*440*t)*("
            + burstTimes.map { "exp(-pow((t-\($0))/0.03\\,2))" }.joined(separator: "+") + ")"
    }
}
