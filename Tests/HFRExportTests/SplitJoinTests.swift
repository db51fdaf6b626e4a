import Foundation
import HFRTestSupport
import Testing

@testable import HFRExport

/// A split batch job's units (`hfr export --split-part video|rest`, the built binary) joined by
/// `SplitJoin` give what one export of the whole job gives: the same packets, byte for byte.
@Suite struct SplitJoinTests {
    /// 3 s at 120 fps with B-frames and a keyframe each second, AAC audio, tagged 120 fps.
    static func input(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("in.mp4")
        let made = try SplitTake.make(path, seconds: 3, size: "160x96")
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// Exports the job's units (video parts cut at the keyframes at 1 s and 2 s) and joins them.
    static func split(_ input: String, _ options: [String], into output: String, in dir: TemporaryDirectory) throws {
        let ranges = ["0-1", "1-2", "2-"]
        var parts: [String] = []
        for (n, range) in ranges.enumerated() {
            let part = dir.path("part-\(n + 1).mp4")
            let r = try Tool.hfr(["export", input, part] + options + ["--range", range, "--split-part", "video"])
            #expect(r.status == 0, "\(r.stderr)")
            parts.append(part)
        }
        let rest = dir.path("rest.mp4")
        let r = try Tool.hfr(["export", input, rest] + options + ["--split-part", "rest"])
        #expect(r.status == 0, "\(r.stderr)")
        _ = try SplitJoin.join(parts: parts, rest: rest, output: output)
    }

    @Test func aConformJoinedEqualsOneExportPacketForPacket() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(in: dir)
        let whole = try Tool.hfr(["export", input, dir.path("whole.mp4"), "--conform", "30"])
        #expect(whole.status == 0, "\(whole.stderr)")
        try Self.split(input, ["--conform", "30"], into: dir.path("joined.mp4"), in: dir)
        let expected = try SplitTake.packets(dir.path("whole.mp4"))
        #expect(expected.count > 360)
        #expect(try SplitTake.packets(dir.path("joined.mp4")) == expected)
    }

    /// Interpolated frames at each seam are made from the frames on both sides of it: losslessly
    /// encoded, the joined pictures are one export's, and the audio is the same to the sample. The
    /// optical flow carries a little from the pair before into the next, which a part has not seen:
    /// the first made picture after each seam may differ, by less than the least visible step
    /// (76.6 and 83.3 dB PSNR here), and nothing else.
    @Test func anInterpolatedSlowdownJoinedEqualsOneExportFrameForFrame() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(in: dir)
        let options = ["--speed", "0.25", "--fps", "60", "--interpolate", "flow", "--quality", "lossless"]
        let whole = try Tool.hfr(["export", input, dir.path("whole.mp4")] + options)
        #expect(whole.status == 0, "\(whole.stderr)")
        try Self.split(input, options, into: dir.path("joined.mp4"), in: dir)
        func frames(_ name: String, stream: Int) throws -> [String] {
            let r = try Tool.run(
                "ffmpeg",
                ["-nostdin", "-v", "error", "-i", dir.path(name), "-map", "0:\(stream)", "-f", "framemd5", "-"])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
                String($0.split(separator: ",").last!)
            }
        }
        let expected = try frames("whole.mp4", stream: 0)
        let joined = try frames("joined.mp4", stream: 0)
        // 12 s at 60 fps; the seams at 1 s and 2 s of the input are output frames 240 and 480.
        #expect(expected.count == 720 && joined.count == 720)
        let differing = zip(joined, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(Set(differing).isSubset(of: [241, 481]), "\(differing)")
        let psnr = try Tool.run(
            "ffmpeg",
            [
                "-nostdin", "-i", dir.path("joined.mp4"), "-i", dir.path("whole.mp4"), "-lavfi", "[0:v][1:v]psnr",
                "-f", "null", "-",
            ])
        let worst = psnr.stderr.split(separator: " ").first { $0.hasPrefix("min:") }.flatMap { Double($0.dropFirst(4)) }
        #expect(differing.isEmpty || (worst ?? 0) >= 60, "\(psnr.stderr.suffix(300))")
        #expect(try frames("joined.mp4", stream: 1) == frames("whole.mp4", stream: 1))
    }
}
