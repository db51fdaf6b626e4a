import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `probe` of hfr's exports shows the time map they were made with: a ramp's segments and speeds,
/// not a single slow-motion factor.
@Suite struct ProbeRampTests {
    @Test(arguments: ["mp4", "mkv"]) func aRampedExportShowsItsSegments(ext: String) throws {
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.sixSeconds.get()
        let out = dir.path("ramp.\(ext)")
        // The ramp in clock-time syntax: the same map as 0-2@1,2-4@0.25,4-@1.
        let r = try Tool.hfr(["export", input, out, "--ramp", "0-0:02@1,0:02-4s@1/4,0:04-@1", "--fps", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")

        let text = try Tool.hfr(["probe", out])
        #expect(text.status == 0)
        #expect(!text.stdout.contains("slow motion 4×,") && !text.stdout.contains("slow motion 4×\n"))
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Time map (hfr export ramp") }, "\(text.stdout)")
        #expect(
            Array(lines[(start + 1)...(start + 3)]) == [
                "  source 0-2 s at speed 1 (real time), plays at 0-2 s",
                "  source 2-4 s at speed 1/4 (slow motion 4×), plays at 2-10 s",
                "  source 4 s-end at speed 1 (real time), plays at 10 s-end",
            ])

        let json = try Tool.json(try Tool.hfr(["probe", "--json", out]).stdout)
        let video = try #require(json["video"] as? [String: Any])
        #expect(video["slowMotionFactor"] is NSNull)
        let map = try #require(video["exportTimeMap"] as? [[String: Any]])
        #expect(map.map { $0["speed"] as? String } == ["1/1", "1/4", "1/1"])
        #expect(map.map { $0["sourceStart"] as? Double } == [0, 2, 4])
        #expect(map.map { $0["outputStart"] as? Double } == [0, 2, 10])
        #expect(map.map { $0["outputEnd"] as? Double } == [2, 10, nil])
        #expect(map.last?["sourceEnd"] is NSNull && map.last?["outputEnd"] is NSNull)
    }

    /// One speed throughout: the factor stays, and the map is its single segment.
    @Test func aConformKeepsItsFactor() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("conform.mp4")
        let r = try Tool.hfr(["export", try ExportInputs.sixSeconds.get(), out, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let text = try Tool.hfr(["probe", out]).stdout
        #expect(text.contains("plays at 30 fps, slow motion 4×") && !text.contains("Time map"), "\(text)")
        let video = try #require(
            try Tool.json(try Tool.hfr(["probe", "--json", out]).stdout)["video"] as? [String: Any])
        #expect(video["slowMotionFactor"] as? String == "4/1")
        let map = try #require(video["exportTimeMap"] as? [[String: Any]])
        #expect(map.count == 1 && map[0]["speed"] as? String == "1/4" && map[0]["outputEnd"] is NSNull)

        let recording = try Tool.json(try Tool.hfr(["probe", "--json", try ExportInputs.sixSeconds.get()]).stdout)
        #expect((recording["video"] as? [String: Any])?["exportTimeMap"] is NSNull)
    }
}
