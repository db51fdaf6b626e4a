import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Every file hfr writes says which hfr wrote it (`encoder` = "hfr 0.1.0", `com.hfr.version`) and
/// when it was made (`creation_time`), read back by ffprobe and, independently, by exiftool.
@Suite struct FileIdentityTagTests {
    static let version = "0.1.0"

    /// Container tags as ffprobe reads them, keys in lower case (Matroska stores them upper case).
    static func tags(_ path: String) throws -> [String: String] {
        let r = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
        let format = try Tool.json(r.stdout)["format"] as? [String: Any]
        let tags = format?["tags"] as? [String: String] ?? [:]
        return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// `yyyy:MM:dd HH:mm:ss` as exiftool prints a QuickTime CreateDate or Matroska DateTimeOriginal.
    static func exiftoolDate(_ path: String) throws -> String? {
        let r = try Tool.run("exiftool", ["-s3", "-CreateDate", "-DateTimeOriginal", path])
        return r.stdout.split(separator: "\n").first.map { String($0.prefix(19)) }
    }

    static func utc(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return f.string(from: date) + ".000000Z"
    }

    @Test(arguments: ["mp4", "mov", "mkv"]) func recordingsSayWhenCaptureStarted(ext: String) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("r.\(ext)")
        let before = Date().timeIntervalSince1970.rounded(.down)
        let r = try Tool.hfr(["record", "--source", "test", "--size", "160x90", "--fps", "60", "--frames", "30", out])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let after = Date().timeIntervalSince1970
        let tags = try Self.tags(out)
        #expect(tags["encoder"] == "hfr \(Self.version)")
        #expect(tags["com.hfr.version"] == Self.version)
        let created = try #require(tags["creation_time"])
        let f = ISO8601DateFormatter()
        let seconds = try #require(f.date(from: String(created.prefix(19)) + "Z")).timeIntervalSince1970
        #expect(seconds >= before && seconds <= after, "\(created)")
        #expect(try Self.exiftoolDate(out)?.replacingOccurrences(of: ":", with: "-").prefix(10) == created.prefix(10))
    }

    /// An input's creation_time is kept, as an ffmpeg stream copy keeps it; an input without one
    /// gets its file's modification time, so the same export gives the same bytes at any time.
    @Test(arguments: ["mp4", "mov", "mkv"]) func exportsKeepTheInputsCreationTime(ext: String) throws {
        let dir = try TemporaryDirectory()
        let shot = dir.path("shot.mp4")
        try ExportInputs.ffmpeg([
            "-i", try ExportInputs.sixSeconds.get(), "-c", "copy", "-map_metadata", "0",
            "-metadata", "creation_time=2024-07-14T10:20:30.000000Z", "-movflags", "+use_metadata_tags", shot,
        ])
        let out = dir.path("conform.\(ext)")
        let r = try Tool.hfr(["export", shot, out, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let tags = try Self.tags(out)
        #expect(tags["creation_time"] == "2024-07-14T10:20:30.000000Z")
        #expect(tags["encoder"] == "hfr \(Self.version)" && tags["com.hfr.version"] == Self.version)
        #expect(try Self.exiftoolDate(out) == "2024:07:14 10:20:30")

        let bare = dir.path("bare.mkv")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x90:rate=120", "-t", "1", "-c:v", "libx264", "-bf", "0",
            "-pix_fmt", "yuv420p", "-fflags", "+bitexact", bare,
        ])
        #expect(try Self.tags(bare)["creation_time"] == nil)
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: bare)
        let first = dir.path("a.\(ext)")
        let second = dir.path("b.\(ext)")
        for path in [first, second] {
            let e = try Tool.hfr(["export", bare, path, "--fps", "30"])
            #expect(e.status == 0, "stderr: \(e.stderr)")
        }
        #expect(try Self.tags(first)["creation_time"] == Self.utc(modified))
        #expect(try Self.tags(first)["encoder"] == "hfr \(Self.version)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    }
}
