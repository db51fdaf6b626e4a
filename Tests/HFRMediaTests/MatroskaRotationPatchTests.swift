import Foundation
import HFRMedia
import HFRTestSupport
import Testing

/// The `Projection` patch on Matroska files FFmpeg 5.1 wrote (by ffmpeg here), read back by
/// ffprobe and mkvinfo; the CRC-32 elements FFmpeg writes stay right.
@Suite struct MatroskaRotationPatchTests {
    static func make(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("in.mkv")
        let r = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30", "-f", "lavfi", "-i",
                "sine=f=440", "-t", "1", "-c:v", "libx264", "-c:a", "aac", path,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    static func vint(_ bytes: [UInt8], _ at: Int, marker: Bool) -> (value: Int, length: Int) {
        let length = bytes[at].leadingZeroBitCount + 1
        var value = Int(marker ? bytes[at] : bytes[at] & (0xFF >> length))
        for i in 1..<length { value = value << 8 | Int(bytes[at + i]) }
        return (value, length)
    }

    /// Every level-1 element before the first Cluster whose first child is a `CRC-32` (ID 0xBF, 4
    /// bytes) must match the bytes it covers, summed as FFmpeg does; returns how many there were.
    static func checkedCRCs(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let headerID = vint(bytes, 0, marker: true)
        let headerSize = vint(bytes, headerID.length, marker: false)
        let segment = headerID.length + headerSize.length + headerSize.value
        var at = segment + vint(bytes, segment, marker: true).length
        at += vint(bytes, at, marker: false).length
        var count = 0
        while at < bytes.count {
            let id = vint(bytes, at, marker: true)
            let size = vint(bytes, at + id.length, marker: false)
            let data = at + id.length + size.length
            if id.value == 0x1F43_B675 { break }  // Cluster
            if bytes[data] == 0xBF, bytes[data + 1] == 0x84 {
                let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[data + 2 + $1]) << (8 * $1) }
                var crc = UInt32.max
                for byte in bytes[(data + 6)..<(data + size.value)] {
                    crc ^= UInt32(byte)
                    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
                }
                #expect(crc ^ UInt32.max == stored, "CRC of element \(String(id.value, radix: 16)) at \(at)")
                count += 1
            }
            at = data + size.value
        }
        return count
    }

    @Test(arguments: [(90, "-90"), (180, "180"), (270, "90")])
    func ffprobeReadsTheRoll(clockwise: Int, ffprobe: String) throws {
        let dir = try TemporaryDirectory()
        let path = try Self.make(dir)
        // FFmpeg's own CRCs check out with the same sum (SeekHead, Info, Tracks, Tags).
        #expect(try Self.checkedCRCs(path) == 4)
        let before = try Tool.run(
            "ffmpeg", ["-v", "error", "-i", path, "-map", "0", "-c", "copy", "-f", "framemd5", "-"]
        ).stdout
        try MatroskaRotationPatch.setRotation(clockwise: clockwise, inFileAt: path)
        #expect(try Self.checkedCRCs(path) == 4)
        let rotation = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0",
                path,
            ])
        #expect(
            rotation.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (ffprobe == "180" ? "-180" : ffprobe))
        let info = try Tool.run("mkvinfo", [path]).stdout
        #expect(info.contains("Projection's roll rotation: \(ffprobe)"), "\(info)")
        #expect(info.contains("Projection type: 0 (rectangular)"))
        // Every packet as before (the index, Cues and clusters untouched), with no complaint.
        let after = try Tool.run(
            "ffmpeg", ["-v", "error", "-i", path, "-map", "0", "-c", "copy", "-f", "framemd5", "-"])
        #expect(after.stdout == before && after.stderr.isEmpty, "\(after.stderr)")
    }

    /// A file that is not Matroska as FFmpeg lays it out (here an MP4) is refused, unchanged.
    @Test func refusesAnotherLayout() throws {
        let dir = try TemporaryDirectory()
        let mkv = try Self.make(dir)
        let path = dir.path("x.mp4")
        #expect(try Tool.run("ffmpeg", ["-v", "error", "-i", mkv, "-c", "copy", path]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: AVFailure.self) { try MatroskaRotationPatch.setRotation(clockwise: 90, inFileAt: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(MatroskaRotationPatch.patched([UInt8](bytes.prefix(4096)), clockwise: 90) == nil)
    }
}
