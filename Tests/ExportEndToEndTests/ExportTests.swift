import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `hfr export` on a real 10 s 120 fps 3-layer recording: conform, layer dropping, re-encoding.
@Suite(.serialized) struct ExportTests {
    func export(_ arguments: [String], in dir: TemporaryDirectory, name: String = "out.mp4") throws -> (
        path: String, result: ToolResult
    ) {
        let input = try ExportInputs.tenSeconds.get()
        let path = dir.path(name)
        return (path, try Tool.hfr(["export", input, path] + arguments))
    }

    @Test func conformKeepsEveryPacketBitIdentical() throws {
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.tenSeconds.get()
        let (out, r) = try export(["--conform", "30", "--json"], in: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 1200)
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(try MediaChecks.entry(out, stream: "v:0", "avg_frame_rate") == "30/1")
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 40) < 0.0005)
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 40) <= 1024.0 / 48000)
        let source = try MediaChecks.codedPictures(input)
        let exported = try MediaChecks.codedPictures(out)
        #expect(exported.map(\.hash) == source.map(\.hash))
        // Timestamps are the source's times 4× (ffprobe prints microseconds, so 4× its rounding).
        #expect(zip(exported, source).allSatisfy { abs($0.time - 4 * $1.time) < 4e-6 })
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        let json = try Tool.json(r.stdout)
        let video = json["video"] as? [String: Any]
        #expect(video?["framesOut"] as? Int == 1200)
        #expect(video?["reencoded"] as? Bool == false)
        // The output says what it is: captured at 120, playing at 30, 4× slow motion.
        let probe = try Tool.json(try Tool.hfr(["probe", "--json", out]).stdout)
        let structure = probe["video"] as? [String: Any]
        #expect(structure?["captureFrameRate"] as? String == "120/1")
        #expect(structure?["slowMotionFactor"] as? String == "4/1")
        #expect(try dir.contents() == ["out.mp4"])
    }

    /// A whole-file conform into MP4 copies the video file to file in the kernel (MP4 index, mapped
    /// input); a conform with a range reads and writes every packet. Both give the same packets, the
    /// same audio and, without audio, the same bytes.
    @Test func kernelCopiedConformEqualsTheReadConform() throws {
        let dir = try TemporaryDirectory()
        for audio in ["mute", "spectral"] {
            let (whole, r1) = try export(
                ["--conform", "30", "--audio", audio, "--json"], in: dir, name: "whole-\(audio).mp4")
            let (ranged, r2) = try export(
                ["--conform", "30", "--audio", audio, "--range", "0-", "--json"], in: dir, name: "range-\(audio).mp4")
            #expect(r1.status == 0 && r2.status == 0, "\(r1.stderr) \(r2.stderr)")
            // The two ways were taken: the kernel copy for the whole file, reading for the range.
            #expect((try Tool.json(r1.stdout)["video"] as? [String: Any])?["kernelCopy"] as? Bool == true)
            #expect((try Tool.json(r2.stdout)["video"] as? [String: Any])?["kernelCopy"] as? Bool == false)
            #expect(try MediaChecks.packets(whole).map(\.hash) == MediaChecks.packets(ranged).map(\.hash))
            #expect(try MediaChecks.packets(whole).count == 1200)
            #expect(try MP4Boxes.sdtpDisposable(whole) == MP4Boxes.sdtpDisposable(ranged))
            #expect(try MediaChecks.decodeErrors(whole).isEmpty)
            if audio == "mute" {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
                #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: ranged))))
            } else {
                #expect(
                    try MediaChecks.packets(whole, stream: "a:0").map(\.hash)
                        == MediaChecks.packets(ranged, stream: "a:0").map(\.hash))
            }
        }
    }

    @Test(arguments: [(60, 600, 1), (30, 300, 0)])
    func fpsDropsUpperLayersKeepingPacketsIdentical(fps: Int, frames: Int, topLayer: Int) throws {
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.tenSeconds.get()
        let (out, r) = try export(["--fps", "\(fps)", "--reencode", "never", "--json"], in: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == frames)
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "\(fps)/1")
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 10) < 0.0005)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        // Kept packets are exactly the input's packets of the kept layers (layers read independently).
        let tids = try PrefixNALReader.temporalIDs(of: input)
        let source = try MediaChecks.codedPictures(input)
        #expect(tids.count == source.count)
        let expected = zip(source, tids).filter { $0.1 <= topLayer }.map(\.0.hash)
        #expect(try MediaChecks.codedPictures(out).map(\.hash) == expected)
        // Audio is copied: the same packets.
        #expect(
            try MediaChecks.packets(out, stream: "a:0").map(\.hash)
                == MediaChecks.packets(input, stream: "a:0").map(\.hash))
        let dropped = (try Tool.json(r.stdout)["video"] as? [String: Any])?["droppedByLayer"] as? [String: Int]
        #expect(dropped?.values.reduce(0, +) == 1200 - frames)
    }

    @Test func fpsThatNeedsReencodingIsRefusedOrReencoded() throws {
        let dir = try TemporaryDirectory()
        let (refusedPath, refused) = try export(["--fps", "50", "--reencode", "never"], in: dir, name: "never.mp4")
        #expect(refused.status == 65)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("--fps 60"), "stderr: \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: refusedPath))
        #expect(try dir.contents().isEmpty)

        let (out, r) = try export(["--fps", "50", "--json"], in: dir, name: "auto.mp4")
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 500)
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "50/1")
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 10) < 0.0005)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        #expect((try Tool.json(r.stdout)["video"] as? [String: Any])?["reencoded"] as? Bool == true)
        #expect(try dir.contents() == ["auto.mp4"])
    }
}
