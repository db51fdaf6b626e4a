import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Matroska stamps frames in milliseconds: 120 fps is 0, 8, 17, 25 ms … and FFmpeg writes no
/// BlockDuration, so the last frame's length is unknown. Exported, the frames are put back on
/// their 1/120 s grid (they were scaled as stamped: 32/36 ms apart at 4× and r_frame_rate 250),
/// and the last frame lasts a period (a 1000 fps file lost it, then was refused as corrupt).
@Suite struct ExportMatroskaTimingTests {
    static func input(rate: Int, seconds: Int, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("in-\(rate).mkv")
        // x264's defaults: B-frames, so decode times are rounded too.
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=\(rate)", "-t", "\(seconds)", "-c:v", "libx264",
            "-preset", "ultrafast", "-bf", "2", path,
        ])
        return path
    }

    /// (pts, dts) of every video packet, in seconds, in decode order; and the stream's r_frame_rate.
    static func timing(_ path: String) throws -> (pts: [Double], dts: [Double], rate: String) {
        let packets = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,dts_time", "-of", "csv=p=0",
                path,
            ]
        ).stdout.split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }
        let rate = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate", "-of", "csv=p=0", path]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (packets.compactMap(\.first), packets.compactMap { $0.count > 1 ? $0[1] : nil }, rate)
    }

    @Test(arguments: [["--conform", "30"], ["--ramp", "0-1@1,1-@0.25", "--fps", "30"], ["--fps", "60"]])
    func framesOfA120FpsMatroskaFileAreExactlyOnTheOutputGrid(_ arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(rate: 120, seconds: 2, in: dir)
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let t = try Self.timing(out)
        let rate = arguments.contains("60") ? 60.0 : 30.0
        let sorted = t.pts.sorted()
        let gaps = zip(sorted, sorted.dropFirst()).map { $1 - $0 }
        #expect(!gaps.isEmpty && gaps.allSatisfy { abs($0 - 1 / rate) < 1e-5 }, "\(arguments): \(gaps.prefix(8))")
        #expect(zip(t.dts, t.dts.dropFirst()).allSatisfy { abs($1 - $0 - 1 / rate) < 1e-5 }, "\(t.dts.prefix(8))")
        #expect(t.rate == "\(Int(rate))/1")
        if arguments == ["--conform", "30"] { #expect(t.pts.count == 240) }
    }

    @Test func aThousandFpsMatroskaFileKeepsItsLastFrame() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(rate: 1000, seconds: 1, in: dir)
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "30"])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try Self.timing(out)
        #expect(t.pts.count == 1000)
        #expect(r.stderr.contains("1000 of 1000 frames") && r.stderr.contains("33.333 s at 30 fps"), "\(r.stderr)")
    }
}
