import Foundation
import HFRMedia
import HFRTestSupport
import Testing

/// The timestamp scale patch on Matroska and WebM files FFmpeg 5.1 wrote (by ffmpeg here, in its
/// milliseconds): the file then says its counts are `tick`s, everything 100 times shorter at
/// 10 µs, as mkvinfo, mkvmerge and ffprobe read it; the CRC-32 elements FFmpeg writes stay right.
@Suite struct MatroskaTimestampScalePatchTests {
    /// One second of 30 fps H.264 (or VP9 in WebM) and a tone.
    static func make(_ dir: TemporaryDirectory, webm: Bool = false) throws -> String {
        let path = dir.path(webm ? "in.webm" : "in.mkv")
        let codecs = webm ? ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"] : ["-c:v", "libx264"]
        let r = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30", "-f", "lavfi", "-i",
                "sine=f=440", "-t", "1",
            ] + codecs + [path])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    /// mkvmerge's reading: the segment's duration (ns), each track's `DURATION` tag, and its complaints.
    static func identify(_ path: String) throws -> (duration: Int, tags: [String], complaints: [String]) {
        let json = try Tool.json(try Tool.run("mkvmerge", ["-J", path]).stdout)
        let properties = (json["container"] as? [String: Any])?["properties"] as? [String: Any]
        let tracks = json["tracks"] as? [[String: Any]] ?? []
        let tags = tracks.compactMap { ($0["properties"] as? [String: Any])?["tag_duration"] as? String }
        let complaints = (json["errors"] as? [String] ?? []) + (json["warnings"] as? [String] ?? [])
        return (properties?["duration"] as? Int ?? -1, tags, complaints)
    }

    /// "HH:MM:SS.nnnnnnnnn" in nanoseconds.
    static func nanoseconds(_ tag: String) -> Int {
        let f = tag.split(whereSeparator: { ":.".contains($0) }).compactMap { Int($0) }
        return f.count == 4 ? ((f[0] * 60 + f[1]) * 60 + f[2]) * 1_000_000_000 + f[3] : -1
    }

    @Test(arguments: [false, true])
    func theFileSaysItsCountsAreTicks(webm: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = try Self.make(dir, webm: webm)
        let before = try Self.identify(path)
        // WebM has no CRC-32 elements (FFmpeg writes none there).
        #expect(try MatroskaRotationPatchTests.checkedCRCs(path) == (webm ? 0 : 4))
        try MatroskaTimestampScalePatch.setTimestampScale(MatroskaTick(frameDuration: Rational(1, 120)), inFileAt: path)
        #expect(try MatroskaRotationPatchTests.checkedCRCs(path) == (webm ? 0 : 4))
        let info = try Tool.run("mkvinfo", [path]).stdout
        #expect(info.contains("Timestamp scale: 10000\n"), "\(info)")
        let after = try Self.identify(path)
        #expect(after.complaints.isEmpty && before.complaints.isEmpty, "\(after.complaints)")
        // The counts did not change, what they mean did: a hundredth of FFmpeg's milliseconds.
        #expect(after.duration * 100 == before.duration, "\(before.duration) → \(after.duration)")
        #expect(before.tags.count == 2 && before.tags.allSatisfy { $0.hasPrefix("00:00:01.0") }, "\(before.tags)")
        #expect(after.tags.map(Self.nanoseconds) == before.tags.map { Self.nanoseconds($0) / 100 }, "\(after.tags)")
        let pts = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path]
        ).stdout.split(separator: "\n").compactMap { Double($0) }.sorted()
        #expect(pts.count == 30 && abs(pts[1] - pts[0] - 0.00033) < 1e-6, "\(pts.prefix(4))")
    }

    /// A file whose scale is not FFmpeg's millisecond (patched already) or that is not Matroska is
    /// refused, unchanged.
    @Test func refusesAnotherScaleOrLayout() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.make(dir)
        let tick = MatroskaTick(frameDuration: Rational(1, 30))
        try MatroskaTimestampScalePatch.setTimestampScale(tick, inFileAt: path)
        let patched = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: AVFailure.self) { try MatroskaTimestampScalePatch.setTimestampScale(tick, inFileAt: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == patched)
        let mp4 = dir.path("x.mp4")
        #expect(
            try Tool.run("ffmpeg", ["-v", "error", "-i", try Self.make(dir, webm: true), "-c", "copy", mp4]).status == 0
        )
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp4)))
        #expect(MatroskaTimestampScalePatch.patched(bytes, tick: tick) == nil)
    }
}
