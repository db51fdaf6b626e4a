import Foundation
import HFRTestSupport
import Testing

/// A sample of the generated command lines of `ExportOptionSpaceTests` run through the binary on
/// the 2 s 120 fps layered fixture and on ffmpeg's 30 fps x264 with B-frames (both with audio): on
/// each the first 8 whose dry run plans at most 600 frames are exported for real (and every refusal met on the way is checked too). Each ends by exit 0 with
/// video and audio as long as each other (one output frame and one audio frame apart at most) and
/// the frames the dry run planned, or by exit 64 or 65 in one line; never a signal; nothing left
/// but the output; every run under 1 GB of memory (its peak resident set, the largest printed).
@Suite struct ExportOptionSampleTests {
    static let seed: UInt64 = 0x5A3F_1E31
    static let exports = 8

    @Test(arguments: ["layered-120fps.mp4", "x264-bframes.mp4"])
    func generatedCommandLinesEndInAFileOrOneLine(fixture: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Fixtures.copy(fixture, to: dir)
        var random = SplitMix64(seed: Self.seed)
        var (exported, refused, tried) = (0, 0, 0)
        var peak = (bytes: 0, line: "")
        /// Runs hfr and checks what no run may do: hang, end by a signal, take 1 GB.
        func hfr(_ arguments: [String]) throws -> TimedRun {
            let r = try TimedRun.run(Tool.hfrPath, arguments, timeout: 600)
            let line = arguments.joined(separator: " ")
            #expect(!r.hung && !r.signalled, "\(line): \(r.hung ? "hung" : "signal \(r.status)"): \(r.stderr)")
            #expect(r.peakMemory < FuzzCaseRun.memoryLimit, "\(line): peak resident set \(r.peakMemory >> 20) MiB")
            if r.peakMemory > peak.bytes {
                peak = (r.peakMemory, line.replacingOccurrences(of: dir.url.path + "/", with: ""))
            }
            return r
        }
        while exported < Self.exports, tried < 200 {
            tried += 1
            let arguments = ExportOptionSpace.arguments(&random, input: input, output: dir.path("out"))
            let output = arguments[1]
            let line = arguments.joined(separator: " ")
            let plan = try hfr(["export"] + arguments + ["--dry-run", "--json"])
            guard plan.status == 0 else {
                refused += 1
                Self.expectRefusal(plan, line)
                continue
            }
            guard let frames = try Tool.json(plan.stdout)["framesOut"] as? Int, frames <= 600 else { continue }
            let r = try hfr(["export"] + arguments)
            if r.status != 0 {
                refused += 1
                Self.expectRefusal(r, line)
                #expect(!FileManager.default.fileExists(atPath: output), "\(line): left \(output)")
            } else {
                exported += 1
                try Self.expectWhole(output, frames: frames, line: line)
                try FileManager.default.removeItem(atPath: output)
            }
            let left = try dir.contents()
            #expect(left == [fixture], "\(line): left \(left)")
        }
        print(
            "export option sample of \(fixture) (seed \(Self.seed)): \(tried) command lines, \(exported) exported, \(refused) refused; "
                + "peak memory \(peak.bytes >> 20) MiB (limit \(FuzzCaseRun.memoryLimit >> 20) MiB): hfr \(peak.line)"
        )
        #expect(exported == Self.exports)
    }

    static func expectRefusal(_ r: TimedRun, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            r.status == 64 || r.status == 65, "\(line): exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1, "\(line): \(r.stderr)", sourceLocation: sourceLocation)
    }

    /// The output holds the planned frames, and its audio (if any) ends with its video.
    static func expectWhole(_ path: String, frames: Int, line: String) throws {
        let probe = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries",
                "stream=codec_type,r_frame_rate:packet=stream_index,pts_time,duration_time",
                "-of", "json", path,
            ])
        let json = try Tool.json(probe.stdout)
        let streams = json["streams"] as? [[String: Any]] ?? []
        let packets = json["packets"] as? [[String: Any]] ?? []
        func end(_ index: Int) -> Double {
            packets.filter { $0["stream_index"] as? Int == index }.map {
                (Double($0["pts_time"] as? String ?? "") ?? 0) + (Double($0["duration_time"] as? String ?? "") ?? 0)
            }.max() ?? 0
        }
        guard let v = streams.firstIndex(where: { $0["codec_type"] as? String == "video" }) else {
            Issue.record("\(line): no video in \(path)")
            return
        }
        #expect(packets.filter { $0["stream_index"] as? Int == v }.count == frames, "\(line)")
        let rate =
            (streams[v]["r_frame_rate"] as? String).flatMap { r -> Double? in
                let p = r.split(separator: "/").compactMap { Double($0) }
                return p.count == 2 && p[1] > 0 ? p[0] / p[1] : nil
            } ?? 30
        if let a = streams.firstIndex(where: { $0["codec_type"] as? String == "audio" }) {
            let (video, audio) = (end(v), end(a))
            #expect(
                abs(video - audio) <= 1 / rate + 1024.0 / 44100 + 0.001, "\(line): video \(video) s, audio \(audio) s")
        }
    }
}
