import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// File names that are not UTF-8 (`clip\xff.mp4`), as any Linux file system holds them, work as
/// input and output. Before, the 0xff was repaired to U+FFFD when the arguments became strings:
/// the input was "no such file" (exit 74) and the output was written as `out\xef\xbf\xbd.mp4`.
@Suite struct ByteNameTests {
    @Test func probeAndExportTakeAndWriteTheExactBytes() throws {
        let dir = try TemporaryDirectory()
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x36:rate=60", "-t", "0.5", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", dir.path("plain.mp4"),
        ])
        let input =
            Array(dir.path("clip").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)] + Array(".mp4".utf8CString)
        #expect(input.withUnsafeBufferPointer { link(dir.path("plain.mp4"), $0.baseAddress!) } == 0)
        let before = try Self.names(in: dir.url.path)
        // The shell makes the byte (printf '\377'): a Swift string cannot carry it to a process.
        // Every command runs (the output side is tested apart from the input side).
        let script = """
            cd "$1" || exit 9
            in=$(printf 'clip\\377.mp4') out=$(printf 'out\\377.mp4') copy=$(printf 'copy\\377.mkv') failed=0
            "$0" probe "$in" || failed=1
            "$0" probe --json "$in" || failed=1
            "$0" export "$in" "$out" --conform 30 --json || failed=1
            "$0" probe "$out" || failed=1
            "$0" export plain.mp4 "$copy" --fps 60 || failed=1
            exit $failed
            """
        let r = try Tool.run("/bin/sh", ["-c", script, Tool.hfrPath, dir.url.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        // Shown with the byte escaped; text and JSON stay valid UTF-8.
        #expect(r.stdout.contains("clip\\xff.mp4: "), "\(r.stdout)")
        #expect(r.stdout.contains(#""file":"clip\\xff.mp4""#), "\(r.stdout)")
        #expect(r.stdout.contains(#""output":"out\\xff.mp4""#), "\(r.stdout)")
        #expect(r.stdout.contains("out\\xff.mp4: "), "\(r.stdout)")
        #expect(r.stderr.contains("Exported out\\xff.mp4: 30 of 30 frames"), "\(r.stderr)")
        #expect(r.stderr.contains("Exported copy\\xff.mkv: 30 of 30 frames"), "\(r.stderr)")
        // Exactly the two names asked for appeared, byte for byte.
        let written = [
            Array("out".utf8) + [0xFF] + Array(".mp4".utf8), Array("copy".utf8) + [0xFF] + Array(".mkv".utf8),
        ]
        #expect(try Self.names(in: dir.url.path) == (before + written).sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// The names in directory `path`, as the bytes the file system holds, sorted.
    static func names(in path: String) throws -> [[UInt8]] {
        let directory = try #require(opendir(path))
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8), name != Array("..".utf8) { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
