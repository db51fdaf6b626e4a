import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// A speed ramp on a real 6 s 120 fps recording: `0-2@1,2-4@0.25,4-@1` at 30 fps.
@Suite(.serialized) struct ExportRampTests {
    static let ramp = "0-2@1,2-4@0.25,4-@1"

    /// Output time of source time `t` under the ramp, computed here independently of hfr.
    static func mapped(_ t: Double) -> Double {
        t < 2 ? t : t < 4 ? 2 + (t - 2) * 4 : 10 + (t - 4)
    }

    @Test func framesComeFromTheRightLayersAtTheRightTimes() throws {
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.sixSeconds.get()
        let out = dir.path("ramp.mp4")
        let r = try Tool.hfr(["export", input, out, "--ramp", Self.ramp, "--fps", "30", "--reencode", "never"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 12) < 0.0005)
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 12) <= 1024.0 / 48000)
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 2 * 30 + 8 * 30 + 2 * 30)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        // Real-time segments keep only layer 0 (every 4th frame), the slow one every frame, each at
        // its source time through the map; the packets are the input's, byte for byte.
        let tids = try PrefixNALReader.temporalIDs(of: input)
        let source = try MediaChecks.codedPictures(input)
        let expected = zip(source, tids).filter { packet, tid in
            (packet.time >= 2 && packet.time < 4) || tid == 0
        }.map(\.0)
        let exported = try MediaChecks.codedPictures(out)
        #expect(exported.map(\.hash) == expected.map(\.hash))
        #expect(exported.count == expected.count)
        for (o, s) in zip(exported, expected) where abs(o.time - Self.mapped(s.time)) > 1e-5 {
            Issue.record("source frame at \(s.time) s came out at \(o.time) s, expected \(Self.mapped(s.time)) s")
            break
        }
        // Output frames are evenly spaced at 1/30 s throughout, across both boundaries.
        for (a, b) in zip(exported, exported.dropFirst()) where abs(b.time - a.time - 1.0 / 30) > 1e-5 {
            Issue.record("frames at \(a.time) and \(b.time) s are not 1/30 s apart")
            break
        }
    }

    /// Tone bursts just before and after each boundary (1.9, 2.1, 3.9, 4.1 s) land where the
    /// video frames of those instants land: within 5 ms, time-domain within 10 ms (measured up to
    /// 5.4 ms).
    @Test(arguments: [("spectral", 0.005), ("time-domain", 0.010), ("varispeed", 0.005)])
    func audioStaysInSyncAcrossBoundaries(algorithm: String, tolerance: Double) throws {
        let dir = try TemporaryDirectory()
        let input = try ExportInputs.sixSeconds(withAudio: ExportAudioTests.bursts, in: dir, name: "bursts.mp4")
        let source = try MediaChecks.audioAnalysis(input).bursts
        let out = dir.path("ramp.mp4")
        let r = try Tool.hfr(["export", input, out, "--ramp", Self.ramp, "--fps", "30", "--audio", algorithm])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let exported = try MediaChecks.audioAnalysis(out).bursts
        #expect(exported.count == source.count)
        for (o, s) in zip(exported, source) {
            #expect(
                abs(o - Self.mapped(s)) < tolerance, "burst at \(s) s came out at \(o) s, expected \(Self.mapped(s))")
        }
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 12) <= 1024.0 / 48000)
    }

    @Test func boundariesSnapToBaseLayerFramesAndSaySo() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("ramp.mp4")
        let r = try Tool.hfr([
            "export", try ExportInputs.sixSeconds.get(), out, "--ramp", "0-2.01@1,2.01-4@0.25,4-@1", "--fps", "30",
            "--range", "1.03-5", "--json",
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("2.01 s moved to 2 s"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("1.03 s is not a keyframe"), "stderr: \(r.stderr)")
        // 0.97 s real time (the frames from the keyframe at 1 s hidden by an edit list), 8 s slow, 1 s.
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 9.97) < 0.0005)
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 29 + 240 + 30)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        #expect((try Tool.json(r.stdout)["notes"] as? [String])?.count == 2)
    }
}
