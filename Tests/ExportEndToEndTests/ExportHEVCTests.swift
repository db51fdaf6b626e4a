import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// 240 fps HEVC with two temporal sub-layers, as x265 (`temporal-layers`) writes them through
/// FFmpeg: probe counts the layers as an independent reading of the NAL headers does, conform copies
/// every packet, `--fps 60` keeps exactly the sub-layer-0 packets, other rates re-encode.
@Suite(.serialized) struct ExportHEVCTests {
    /// 241 frames at 240 fps. A fixed pattern (3 non-reference B-frames between P-frames, one
    /// closed GOP) puts 1 frame in 4 in sub-layer 0, evenly; with an IDR every 32 frames the P-frame
    /// before each IDR breaks the spacing (`even` false).
    static func make(_ name: String, tag: String, even: Bool, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path(name)
        let keyint = even ? 250 : 32
        let params =
            "temporal-layers=1:bframes=3:b-adapt=0:b-pyramid=0:keyint=\(keyint):min-keyint=\(keyint)"
            + ":scenecut=0:no-open-gop=1:log-level=error"
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=256x144:rate=240", "-frames:v", "241", "-c:v", "libx265",
            "-x265-params", params, "-tag:v", tag, path,
        ])
        return path
    }

    /// Per packet in file order, from ffmpeg's trace_headers: the temporal id of its slices, and
    /// whether every slice is a sub-layer non-reference type (even nal_unit_type ≤ 14).
    static func independentLayers(_ path: String) throws -> [(temporalID: Int, nonReference: Bool)] {
        try NALUnitTypes.hevc(path).map { units in
            let slices = units.filter(\.isVCL)
            return (slices.map(\.temporalID).max() ?? -1, slices.allSatisfy { $0.type <= 14 && $0.type % 2 == 0 })
        }
    }

    /// Presentation times of the packets of temporal id 0, sorted: their gaps.
    static func baseLayerGaps(_ path: String) throws -> [Double] {
        let layers = try independentLayers(path)
        let times = try MediaChecks.packets(path).enumerated().filter { layers[$0.offset].temporalID == 0 }
            .map(\.element.time).sorted()
        return zip(times.dropFirst(), times).map { $0 - $1 }
    }

    static func probe(_ path: String) throws -> [String: Any] {
        let r = try Tool.hfr(["probe", path, "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        return try Tool.json(r.stdout)["video"] as? [String: Any] ?? [:]
    }

    @Test(arguments: ["hvc1", "hev1"])
    func probeCountsSubLayersAsTheNALHeadersSay(tag: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make("hevc240.mp4", tag: tag, even: true, in: dir)
        let independent = try Self.independentLayers(input)
        let base = independent.filter { $0.temporalID == 0 }.count
        let upper = independent.filter { $0.temporalID == 1 }
        #expect(independent.count == 241 && base == 61 && upper.count == 180)
        #expect(try Self.baseLayerGaps(input).allSatisfy { abs($0 - 4.0 / 240) < 1e-6 })

        let video = try Self.probe(input)
        #expect(video["layerSignalling"] as? String == "hevc-temporal-id")
        let layers = video["layers"] as? [[String: Any]] ?? []
        #expect(layers.map { $0["frames"] as? Int } == [base, upper.count])
        #expect(video["droppableFrames"] as? Int == upper.filter(\.nonReference).count)
        let rates = video["reachableRates"] as? [[String: Any]] ?? []
        #expect(rates.last?["frames"] as? Int == base && rates.last?["uniform"] as? Bool == true)
        // 1 frame in 4 of 240 fps, although 241 frames do not end on a whole period.
        #expect(rates.last?["rate"] as? String == "60/1")
    }

    @Test(arguments: ["hvc1", "hev1"])
    func conformAndLosslessDropKeepPacketsAndTag(tag: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make("hevc240.mp4", tag: tag, even: true, in: dir)
        let packets = try MediaChecks.packets(input).map(\.hash)

        let conform = dir.path("conform.mp4")
        let c = try Tool.hfr(["export", input, conform, "--conform", "30"])
        #expect(c.status == 0, "stderr: \(c.stderr)")
        #expect(try MediaChecks.packets(conform).map(\.hash) == packets)
        #expect(try MediaChecks.entry(conform, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(try MediaChecks.entry(conform, stream: "v:0", "avg_frame_rate") == "30/1")
        // 8× slower: 241 frames of 1/240 s become 241 frames of 1/30 s.
        #expect(abs(try MediaChecks.duration(conform, stream: "v:0") - 241.0 / 30) < 0.001)
        #expect(try MediaChecks.entry(conform, stream: "v:0", "codec_tag_string") == tag)

        let fps60 = dir.path("fps60.mp4")
        let d = try Tool.hfr(["export", input, fps60, "--fps", "60", "--reencode", "never"])
        #expect(d.status == 0, "stderr: \(d.stderr)")
        let layers = try Self.independentLayers(input)
        let base = packets.enumerated().filter { layers[$0.offset].temporalID == 0 }.map(\.element)
        #expect(try MediaChecks.packets(fps60).map(\.hash) == base)
        #expect(try MediaChecks.decodeErrors(fps60).isEmpty)
        #expect(try FFprobe.count(fps60, stream: "v:0", decoding: true) == base.count)
        #expect(try MediaChecks.entry(fps60, stream: "v:0", "r_frame_rate") == "60/1")
        #expect(try MediaChecks.entry(fps60, stream: "v:0", "codec_tag_string") == tag)
    }

    @Test func unreachableRateIsRefusedOrReencoded() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make("hevc240.mp4", tag: "hvc1", even: true, in: dir)
        let refused = try Tool.hfr(["export", input, dir.path("never.mp4"), "--fps", "120", "--reencode", "never"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("nearest lossless: --fps 60"), "stderr: \(refused.stderr)")
        #expect(try dir.contents() == ["hevc240.mp4"])

        let out = dir.path("fps120.mp4")
        let r = try Tool.hfr(["export", input, out, "--fps", "120", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect((try Tool.json(r.stdout)["video"] as? [String: Any])?["reencoded"] as? Bool == true)
        #expect(try MediaChecks.entry(out, stream: "v:0", "codec_name") == "hevc")
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "120/1")
        #expect(try (120...121).contains(FFprobe.count(out, stream: "v:0", decoding: true)))
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// A ramp switches sub-layers at a base-layer frame: sub-layer 0 only at real time (60 fps of
    /// 240), every frame at 1/4 speed from 0.5 s on.
    @Test func rampSwitchesSubLayersLosslessly() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make("hevc240.mp4", tag: "hvc1", even: true, in: dir)
        let out = dir.path("ramp.mp4")
        let r = try Tool.hfr(["export", input, out, "--ramp", "0-0.5@1,0.5-@1/4", "--fps", "60", "--reencode", "never"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let layers = try Self.independentLayers(input)
        let kept = try MediaChecks.packets(input).enumerated().filter {
            layers[$0.offset].temporalID == 0 || $0.element.time >= 0.5 - 1e-9
        }
        #expect(kept.count == 30 + 121)
        #expect(try MediaChecks.packets(out).map(\.hash) == kept.map(\.element.hash))
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// A base sub-layer that is not evenly spaced is reported so and re-encoded, never dropped
    /// into a jerky file.
    @Test func unevenBaseLayerIsReencoded() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make("uneven.mp4", tag: "hvc1", even: false, in: dir)
        let gaps = try Self.baseLayerGaps(input)
        #expect(gaps.contains { abs($0 - 4.0 / 240) > 1e-6 }, "the fixture must be uneven: \(gaps)")

        let video = try Self.probe(input)
        #expect(video["layerSignalling"] as? String == "hevc-temporal-id")
        let rates = video["reachableRates"] as? [[String: Any]] ?? []
        #expect(rates.last?["keep"] as? String == "layer 0" && rates.last?["uniform"] as? Bool == false)

        let refused = try Tool.hfr(["export", input, dir.path("never.mp4"), "--fps", "60", "--reencode", "never"])
        #expect(refused.status == 65, "stderr: \(refused.stderr)")
        let out = dir.path("fps60.mp4")
        let r = try Tool.hfr(["export", input, out, "--fps", "60", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect((try Tool.json(r.stdout)["video"] as? [String: Any])?["reencoded"] as? Bool == true)
        #expect(try MediaChecks.entry(out, stream: "v:0", "codec_name") == "hevc")
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }
}
