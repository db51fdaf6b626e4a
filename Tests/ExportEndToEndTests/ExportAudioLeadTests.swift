import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Issue 41 item 14: audio that starts before the first video frame (a camera that starts its
/// microphone first) keeps its lead, as an editor keeps a clip's offset: the output's audio starts
/// the lead (through the time map) before the video's first frame, which the container shows as the
/// video starting that much later. A range that starts after the lead starts there.
@Suite struct ExportAudioLeadTests {
    let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory() }

    /// Video 0.5-3 s (160x120 at 120 fps), audio 0-3 s (a tone).
    func input(_ name: String, audio: String) throws -> String {
        let path = dir.path(name)
        try ExportInputs.ffmpeg([
            "-itsoffset", "0.5", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=120:d=2.5", "-f", "lavfi", "-i",
            "sine=d=3", "-fps_mode", "passthrough", "-c:v", "libx264", "-bf", "0", "-c:a", audio, path,
        ])
        return path
    }

    /// The video's and the audio's start times and the file's duration, in seconds.
    func starts(_ path: String) throws -> (video: Double, audio: Double, duration: Double) {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_type,start_time:format=duration", "-of", "json", path,
            ])
        let json = try Tool.json(r.stdout)
        let streams = json["streams"] as? [[String: Any]] ?? []
        func start(_ kind: String) -> Double {
            Double(streams.first { $0["codec_type"] as? String == kind }?["start_time"] as? String ?? "") ?? -1
        }
        let duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? -1
        return (start("video"), start("audio"), duration)
    }

    @Test(arguments: [
        ("lead.mp4", "aac", ["--conform", "30"], 4.0), ("lead.mkv", "pcm_s16le", ["--conform", "30"], 4.0),
        ("lead.mp4", "aac", ["--fps", "60"], 1.0), ("lead.mkv", "pcm_s16le", ["--speed", "0.5"], 2.0),
    ])
    func keepsTheLeadOfAudioThatStartsFirst(name: String, audio: String, mode: [String], factor: Double) throws {
        let source = try input(name, audio: audio)
        let given = try starts(source)
        let lead = (given.video - given.audio) * factor
        try #require(given.video - given.audio > 0.4)
        let out = dir.path("out-" + name)
        let r = try Tool.hfr(["export", source, out] + mode)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("before the first video frame"), "\(r.stderr)")
        let got = try starts(out)
        // To within a frame of the output (MP4's edit list counts in the movie's time scale).
        #expect(abs((got.video - got.audio) - lead) < 0.01, "\(mode): \(got), lead \(lead)")
        // The audio lasts to the end of the video: lead + 2.5 s, times the slow-down.
        #expect(abs(got.duration - 3 * factor) < 0.05, "\(mode): \(got)")
    }

    /// The dry run says so; a ramp keeps the lead at its first speed; a range that starts after the
    /// lead has none.
    @Test func theDryRunSaysSoAndARangeAfterTheLeadHasNone() throws {
        let source = try input("lead.mkv", audio: "pcm_s16le")
        let ramp = try Tool.hfr([
            "export", source, dir.path("ramp.mkv"), "--ramp", "0-1@0.25,1-@1", "--fps", "30", "--dry-run",
        ])
        #expect(ramp.status == 0, "\(ramp.stderr)")
        #expect(ramp.stdout.contains("0.5 s before the first video frame"), "\(ramp.stdout)")
        #expect(ramp.stdout.contains("video starts at 2.000 s"), "\(ramp.stdout)")
        let mov = try input("lead.mov", audio: "pcm_s16le")
        let out = dir.path("range.mov")
        let r = try Tool.hfr(["export", mov, out, "--conform", "30", "--range", "1-2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("before the first video frame"), "\(r.stderr)")
        let got = try starts(out)
        #expect(abs(got.video - got.audio) < 0.001 && abs(got.duration - 4) < 0.05, "\(got)")
    }
}
