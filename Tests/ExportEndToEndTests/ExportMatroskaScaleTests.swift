import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// MKV and WebM outputs count time finely enough for their frame rate (issue 31). FFmpeg 5.1's
/// muxer counts milliseconds: a 30 fps export had frames 33 and 34 ms apart, a 60 fps one 16 and
/// 17 ms. Where the millisecond cannot time the frames, hfr counts 10 µs ticks and the file's
/// `TimestampScale` says so; its duration tags, segment duration and audio agree.
@Suite struct ExportMatroskaScaleTests {
    /// An export and what its output must show.
    struct Case: Sendable, CustomTestStringConvertible {
        /// The input: an ffmpeg-made file ("120", "240", "100", "vp9") or hfr's 120 fps recording.
        var input: String
        var arguments: [String]
        var ext = "mkv"
        var rate: Int
        /// The output's timestamp scale in nanoseconds.
        var tick: Int
        var frames: Int
        var testDescription: String { "\(input) → \(arguments.joined(separator: " ")) .\(ext)" }
    }

    static let cases: [Case] = [
        Case(input: "120", arguments: ["--conform", "30"], rate: 30, tick: 10_000, frames: 240),
        Case(input: "recording", arguments: ["--fps", "60"], rate: 60, tick: 10_000, frames: 360),
        Case(input: "240", arguments: ["--conform", "30"], rate: 30, tick: 10_000, frames: 480),
        // B-frames and AAC: blocks lag their cluster's first by more than a 1 µs tick's ±33 ms.
        Case(input: "120", arguments: ["--fps", "120"], rate: 120, tick: 10_000, frames: 240),
        Case(input: "vp9", arguments: ["--conform", "30"], ext: "webm", rate: 30, tick: 10_000, frames: 240),
        // The millisecond times 25 fps exactly: FFmpeg's scale stays.
        Case(input: "100", arguments: ["--conform", "25"], rate: 25, tick: 1_000_000, frames: 200),
    ]

    /// 2 s at `rate` fps with a 440 Hz tone (x264 with B-frames and AAC, or VP9 and Opus in WebM).
    static func input(_ name: String, in dir: TemporaryDirectory) throws -> String {
        if name == "recording" { return try ExportInputs.sixSeconds.get() }
        let isVP9 = name == "vp9"
        let path = dir.path("in-\(name).\(isVP9 ? "webm" : "mkv")")
        let codecs =
            isVP9
            ? ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"]
            : ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-c:a", "aac"]
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=\(isVP9 ? "120" : name)", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000", "-t", "2",
            ] + codecs + ["-shortest", path])
        return path
    }

    /// Every packet's (pts, duration) in seconds, by pts.
    static func packets(_ path: String, _ stream: String) throws -> [(pts: Double, duration: Double)] {
        try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,duration_time", "-of",
                "csv=p=0", path,
            ]
        ).stdout.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",").map { Double($0) }
            guard f.count == 2, let pts = f[0] else { return nil }
            return (pts, f[1] ?? 0)
        }.sorted { $0.pts < $1.pts }
    }

    /// mkvmerge's reading: the segment's duration and each track's `DURATION` tag, in seconds, and
    /// what it complains of.
    static func identify(_ path: String) throws -> (duration: Double, tags: [Double], complaints: [String]) {
        let json = try Tool.json(try Tool.run("mkvmerge", ["-J", path]).stdout)
        let properties = (json["container"] as? [String: Any])?["properties"] as? [String: Any]
        let tags = (json["tracks"] as? [[String: Any]] ?? []).compactMap {
            ($0["properties"] as? [String: Any])?["tag_duration"] as? String
        }.map { tag in
            tag.split(separator: ":").compactMap { Double($0) }.reduce(0) { $0 * 60 + $1 }
        }
        let complaints = (json["errors"] as? [String] ?? []) + (json["warnings"] as? [String] ?? [])
        return (Double(properties?["duration"] as? Int ?? -1) / 1e9, tags, complaints)
    }

    @Test(arguments: cases)
    func framesAreOnTheOutputGridAndTheFileSaysItsScale(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(c.input, in: dir)
        let out = dir.path("out.\(c.ext)")
        // -v: libav's own messages, where FFmpeg would say it split a cluster.
        let r = try Tool.hfr(["export", input, out, "-v"] + c.arguments)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("copied losslessly"), "\(r.stderr.suffix(400))")
        #expect(!r.stderr.contains("Starting new cluster"))
        let info = try Tool.run("mkvinfo", [out]).stdout
        #expect(info.contains("Timestamp scale: \(c.tick)\n"), "\(info.prefix(800))")
        // Each frame within a tick of its place on the grid from the first (both rounded to ticks).
        let video = try Self.packets(out, "v:0")
        let period = 1 / Double(c.rate)
        let tick = Double(c.tick) / 1e9
        #expect(video.count == c.frames)
        let offGrid = video.indices.map { abs(video[$0].pts - video[0].pts - Double($0) * period) }.max() ?? 1
        #expect(offGrid <= tick + 1e-6, "a frame \(offGrid * 1e6) µs off the 1/\(c.rate) s grid")
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "\(c.rate)/1")
        // The tags and the segment's duration in real time: the video's end, the audio's within a packet.
        let videoEnd = (video.last?.pts ?? 0) + period
        let audio = try Self.packets(out, "a:0")
        let audioEnd = audio.map { $0.pts + $0.duration }.max() ?? 0
        let audioPacket = audio.map(\.duration).max() ?? 0
        #expect(abs(audioEnd - videoEnd) <= audioPacket + tick, "audio ends at \(audioEnd) s, video at \(videoEnd) s")
        let m = try Self.identify(out)
        #expect(m.complaints.isEmpty, "\(m.complaints)")
        #expect(m.tags.count == 2, "\(m.tags)")
        if m.tags.count == 2 {
            #expect(abs(m.tags[0] - videoEnd) <= period, "video DURATION \(m.tags[0]) s, ends at \(videoEnd) s")
            #expect(abs(m.tags[1] - audioEnd) <= audioPacket, "audio DURATION \(m.tags[1]) s, ends at \(audioEnd) s")
        }
        #expect(abs(m.duration - max(videoEnd, audioEnd)) <= period, "segment duration \(m.duration) s")
        #expect(try MediaChecks.decodeErrors(out) == "")
    }
}
