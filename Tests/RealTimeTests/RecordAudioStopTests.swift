import Foundation
import HFRTestSupport
import Testing

/// Issue 41, item 4: audio that ends or stalls before the video never ends or loses the
/// recording: the video goes on, the audio track is filled with silence, and the summary and
/// `--json` say so. Real sources: the test pattern with an FFmpeg audio graph as its sound.
@Suite struct RecordAudioStopTests {
    /// The recording's streams as one decoding ffprobe run reads them.
    static func probe(_ path: String) throws -> (reading: FFprobeReading, errors: String) {
        let r = try Tool.run("ffprobe", FFprobeReading.arguments(path, decoding: true))
        return (FFprobeReading(json: r.stdout), r.stderr)
    }

    /// The issue's command: a sound of 0.05 s under a 1 s recording. It failed with "encoder
    /// failed: avcodec_send_frame: Invalid argument" and left only the partial file: the 0.95 s of
    /// silence padding the audio to the video's end went to the encoder as one frame of 45 600
    /// samples, where AAC takes at most 1024.
    @Test func audioThatEndsIsPaddedWithSilenceAndTheVideoGoesOn() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("t.mp4")
        let r = try Tool.hfr([
            "record", path, "--source", "test", "--size", "160x120", "--fps", "60", "--audio", "lavfi:sine=d=0.05",
            "--duration", "1", "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try dir.contents() == ["t.mp4"])
        let (reading, errors) = try Self.probe(path)
        #expect(errors.isEmpty, "\(errors)")
        #expect(reading.decodedFrames == 60)
        let audio = Double(reading.entry("audio", "duration")) ?? -1
        #expect(abs(audio - 1) <= 1.0 / 60, "audio lasts \(audio) s")
        let json = try Tool.json(r.stdout)
        let stopped = try #require(json["audioStopped"] as? [String: Any], "\(r.stdout)")
        #expect(stopped["cause"] as? String == "end-of-source")
        #expect(stopped["track"] as? String == "padded-with-silence")
        #expect(abs((stopped["at"] as? Double ?? -1) - 0.05) < 1e-3, "\(stopped)")
        #expect(abs((json["audioSilence"] as? Double ?? -1) - 0.95) < 1e-3, "\(json)")
        #expect(r.stderr.contains("audio stopped at 0.050 s (its source delivered no more); padded with silence"))
    }

    /// Audio that stalls from 0.5 s to 3.5 s (its timestamps jump 3 s: the graph's pacing, which
    /// treats a jump over 2 s as a discontinuity, does not wait, so the picture goes on) in a 5 s
    /// recording: the track goes on in silence while it stalls — as it happens, so the file keeps
    /// being written — and the tone is back at 3.5 s, in its place. Read from the decoded audio's
    /// RMS level per half second (one ffmpeg run).
    @Test func audioThatStallsIsFilledWithSilenceInItsPlace() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("s.mp4")
        let r = try Tool.hfr([
            "record", path, "--source", "test", "--size", "160x120", "--fps", "30", "--duration", "5", "--audio",
            "lavfi:sine=f=1000:d=10,asetpts=PTS+if(gte(T\\,0.5)\\,3/TB\\,0)", "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try Tool.json(r.stdout)
        #expect(json["audioStopped"] is NSNull, "\(r.stdout)")
        let silence = json["audioSilence"] as? Double ?? -1
        #expect(abs(silence - 3) < 0.05, "\(silence) s of silence")
        let levels = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-i", path, "-vn", "-af",
                "asetnsamples=n=24000,astats=metadata=1:reset=1,"
                    + "ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-",
                "-f", "null", "-",
            ]
        ).stdout.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("lavfi.astats.Overall.RMS_level=") else { return nil }
            return Double(line.dropFirst("lavfi.astats.Overall.RMS_level=".count)) ?? -.infinity
        }
        // The tone (-21 dBFS RMS) in the first half second and from 3.5 s on, nothing between (the
        // encoder's spread of the tone's sudden end reaches -37 dBFS in the second half second).
        let isTone = levels.prefix(10).map { $0 > -27 }
        let expected = (0..<10).map { $0 == 0 || $0 >= 7 }
        #expect(isTone == expected, "RMS per 0.5 s: \(levels)")
    }
}
