import Foundation
import HFRMedia
import HFRTestSupport
import Testing

/// The float32 `mdta` patch on movie boxes laid out as FFmpeg 5.1 writes them (built here), and on
/// files FFmpeg wrote, read back by FFmpeg, exiftool and an Android-style reader.
@Suite struct MP4MetadataPatchTests {
    static let android = "com.android.capture.fps"
    static let hfr = "com.hfr.capture.fps"

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }

    /// `moov` with `mvhd` (dummy) and `udta/meta` as FFmpeg writes it: an ISO full box holding
    /// hdlr `mdta`, keys and ilst with UTF-8 values; `extra` goes into `udta` after the meta box.
    static func ffmpegMovie(_ tags: [(String, String)], extra: [UInt8] = []) -> [UInt8] {
        let hdlr = box("hdlr", [0, 0, 0, 0] + [0, 0, 0, 0] + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
        let keys = box(
            "keys", [0, 0, 0, 0] + be32(UInt32(tags.count)) + tags.flatMap { box("mdta", Array($0.0.utf8)) })
        let items = tags.enumerated().flatMap { i, tag in
            let data = box("data", be32(1) + be32(0) + Array(tag.1.utf8))
            return be32(UInt32(8 + data.count)) + be32(UInt32(i + 1)) + data
        }
        let meta = box("meta", [0, 0, 0, 0] + hdlr + keys + box("ilst", items))
        return box("moov", box("mvhd", [UInt8](repeating: 7, count: 100)) + box("udta", meta + extra))
    }

    static func types(_ bytes: [UInt8], from: Int, to: Int) -> [String] {
        AndroidMetadata.boxes(bytes, from, to).map(\.type)
    }

    @Test func movesTheMetaBoxUnderMoovAndTypesTheFloat() throws {
        let movie = Self.ffmpegMovie([(Self.hfr, "120/1"), (Self.android, MP4MetadataPatch.placeholder)])
        let patched = try #require(MP4MetadataPatch.patchedMovie(movie, setting: [Self.android: 120]))
        #expect(patched.count == movie.count)
        // meta (QuickTime form) + the 12 bytes freed by udta's header and the full box's flags.
        #expect(Self.types(patched, from: 8, to: patched.count) == ["mvhd", "meta", "free"])
        let meta = try #require(AndroidMetadata.boxes(patched, 8, patched.count).first { $0.type == "meta" })
        #expect(Self.types(patched, from: meta.start + 8, to: meta.end) == ["hdlr", "keys", "ilst"])
        let free = try #require(AndroidMetadata.boxes(patched, 8, patched.count).last)
        #expect(free.size == 12)
        // The float's bytes: 120.0 = 0x42F00000, type 23; the other value untouched.
        let floatData = Self.be32(23) + Self.be32(0) + [0x42, 0xF0, 0, 0]
        #expect(patched.firstRange(of: floatData) != nil)
        #expect(patched.firstRange(of: Self.be32(1) + Self.be32(0) + Array("120/1".utf8)) != nil)
        #expect(patched.firstRange(of: Array(MP4MetadataPatch.placeholder.utf8)) == nil)
    }

    @Test func keepsOtherUserDataInUdta() throws {
        let other = Self.box("\u{A9}nam", [0, 5, 0, 0] + Array("hello".utf8))
        let movie = Self.ffmpegMovie([(Self.android, MP4MetadataPatch.placeholder)], extra: other)
        let patched = try #require(MP4MetadataPatch.patchedMovie(movie, setting: [Self.android: 240]))
        #expect(patched.count == movie.count)
        #expect(Self.types(patched, from: 8, to: patched.count) == ["mvhd", "meta", "udta"])
        let udta = try #require(AndroidMetadata.boxes(patched, 8, patched.count).last)
        #expect(Array(patched[(udta.start + 8)..<udta.end]) == other)
        #expect(patched.firstRange(of: Self.be32(23) + Self.be32(0) + [0x43, 0x70, 0, 0]) != nil)
    }

    @Test func refusesWithoutThePlaceholder() {
        let movie = Self.ffmpegMovie([(Self.android, "120.000000")])
        #expect(MP4MetadataPatch.patchedMovie(movie, setting: [Self.android: 120]) == nil)
        let noKey = Self.ffmpegMovie([(Self.hfr, MP4MetadataPatch.placeholder)])
        #expect(MP4MetadataPatch.patchedMovie(noKey, setting: [Self.android: 120]) == nil)
    }

    /// Files FFmpeg wrote with the movie box last and first: after the patch ffprobe still decodes
    /// every frame and reads the value (as "%f" text), exiftool names the float type, and an
    /// Android-style reader finds the capture rate.
    @Test(arguments: [false, true]) func patchesFilesFFmpegWrote(faststart: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("tagged.mp4")
        let r = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=30", "-t", "1",
                "-c:v", "libx264", "-metadata", "\(Self.android)=\(MP4MetadataPatch.placeholder)",
                "-metadata", "\(Self.hfr)=120/1", "-movflags", "+use_metadata_tags" + (faststart ? "+faststart" : ""),
                path,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try AndroidMetadata.captureRate(path) == nil)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        try MP4MetadataPatch.setFloat32([Self.android: 120], inFileAt: path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
        #expect(try AndroidMetadata.captureRate(path) == 120)
        let tags = try Tool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path]
        ).stdout
        #expect(tags.contains("TAG:\(Self.android)=120.000000"))
        #expect(tags.contains("TAG:\(Self.hfr)=120/1"))
        let decode = try Tool.run(
            "ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "framemd5", "-"])
        #expect(decode.stderr.isEmpty)
        #expect(decode.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == 30)
        let item = try #require(try ExifTool.item("AndroidCaptureFps", in: path))
        #expect(item.value == "120")
        #expect(item.type == "Flags=0x17 (float)")
    }
}
