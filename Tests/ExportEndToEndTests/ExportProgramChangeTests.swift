import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Issue 41 item 11: an MPEG-TS whose PIDs change half-way (two recordings, each its own program,
/// concatenated): FFmpeg sees 4 streams, the video and audio of each program, each in half the file.
/// The export writes the main timeline (the first program's video and its audio) and names the
/// other program's tracks as left out; no mode traps (a zero sample rate divided by, a Swift trap
/// with exit 132, was what `--conform 30 --dry-run` and `--speed 0.5` did).
@Suite struct ExportProgramChangeTests {
    let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory() }

    /// Two 1-second segments (160x120 at 120 fps with a tone), the second with PIDs from 0x200 and
    /// service id 2, concatenated.
    func concatenated() throws -> String {
        var joined = Data()
        for (name, pid, service) in [("a.ts", "0x100", "1"), ("b.ts", "0x200", "2")] {
            let path = dir.path(name)
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=s=160x120:r=120", "-f", "lavfi", "-i", "sine", "-t", "1", "-c:v",
                "libx264", "-bf", "0", "-c:a", "aac", "-mpegts_start_pid", pid, "-mpegts_service_id", service, "-f",
                "mpegts", path,
            ])
            joined.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        let input = dir.path("ab.ts")
        try joined.write(to: URL(fileURLWithPath: input))
        return input
    }

    @Test func exportsTheFirstProgramAndNamesTheOther() throws {
        let input = try concatenated()
        for mode in [["--conform", "30"], ["--speed", "0.5"], ["--ramp", "0-0.5@1,0.5-@0.25"], ["--fps", "60"]] {
            let plan = try Tool.hfr(["export", input, dir.path("plan.mp4"), "--dry-run", "--json"] + mode)
            #expect(plan.status == 0, "\(mode): \(plan.stderr)")
            guard plan.status == 0 else { continue }
            let json = try Tool.json(plan.stdout)
            let tracks = json["tracks"] as? [[String: Any]] ?? []
            let written = tracks.filter { $0["output"] is Int }.compactMap { $0["input"] as? Int }
            let left = tracks.filter { $0["action"] as? String == "drop" }
            #expect(written == [0, 1] && left.count == 2, "\(mode): \(tracks)")
            #expect(
                left.allSatisfy { ($0["reason"] as? String ?? "").contains("program 2") }, "\(mode): \(left)")
            #expect(json["framesOut"] as? Int ?? 0 > 0, "\(mode): \(plan.stdout)")
        }
        let out = dir.path("conform.mp4")
        let r = try Tool.hfr(["export", input, out, "--conform", "30"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("program 2"), "\(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: false) == 120)
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 4) < 0.05)
        let fps = dir.path("fps60.mkv")
        let f = try Tool.hfr(["export", input, fps, "--fps", "60"])
        #expect(f.status == 0, "\(f.stderr)")
        #expect(try FFprobe.count(fps, stream: "v:0", decoding: false) == 60)
    }
}
