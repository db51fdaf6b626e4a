import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// An OpenH264 stream with SVC prefix NAL units, as users get it: the raw stream stream-copied into
/// MP4 by FFmpeg 5.1, which ends each sample with the prefix NAL unit of the next one. Temporal ids
/// are read from wherever the prefix is, and a lossless export moves it to the front of its sample.
@Suite(.serialized) struct ExportPrefixLayoutTests {
    static let prefixType = 14

    @Test func bothPrefixLayoutsGiveTheSameLayersAndPackets() throws {
        let dir = try TemporaryDirectory()
        let recording = try ExportInputs.record("rec-2s-prefix.mp4", duration: "2").get()
        let raw = dir.path("raw.264")
        try ExportInputs.ffmpeg(["-i", recording, "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb", raw])
        // The user's way: the raw stream copied into MP4 (prefix at the end of the previous sample).
        let trailing = dir.path("ffmpeg.mp4")
        try ExportInputs.ffmpeg(["-framerate", "120", "-i", raw, "-c", "copy", trailing])
        // The same NAL units with each prefix in its own sample, as OpenH264 emits them.
        let leading = dir.path("leading.mp4")
        try ExportInputs.ffmpeg(["-i", recording, "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb", leading])

        let trailingTypes = try NALUnitTypes.h264(trailing)
        let leadingTypes = try NALUnitTypes.h264(leading)
        #expect(trailingTypes.count == 240 && leadingTypes.count == 240)
        #expect(trailingTypes.filter { $0.last == Self.prefixType }.count > 200, "\(trailingTypes.prefix(4))")
        #expect(!leadingTypes.contains { $0.last == Self.prefixType })
        #expect(trailingTypes.joined().elementsEqual(leadingTypes.joined()))

        let probes = try [leading, trailing].map { path in
            let r = try Tool.hfr(["probe", path, "--json"])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            return try Tool.json(r.stdout)["video"] as? [String: Any] ?? [:]
        }
        for video in probes {
            #expect(video["layerSignalling"] as? String == "svc-temporal-id")
            #expect((video["layers"] as? [[String: Any]])?.map { $0["frames"] as? Int } == [60, 60, 120])
        }

        var outputs: [[MediaChecks.PacketInfo]] = []
        for input in [leading, trailing] {
            let out = dir.path("fps60-" + URL(fileURLWithPath: input).lastPathComponent)
            let r = try Tool.hfr(["export", input, out, "--fps", "60", "--reencode", "never"])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try MediaChecks.decodeErrors(out).isEmpty)
            // Every kept sample starts its picture with its own prefix; none ends with another's.
            let types = try NALUnitTypes.h264(out)
            #expect(types.count == 120)
            #expect(types.allSatisfy { $0.last != Self.prefixType && $0.drop { $0 == 7 || $0 == 8 }.first == 14 })
            outputs.append(try MediaChecks.packets(out))
        }
        #expect(outputs[0].map(\.hash) == outputs[1].map(\.hash))
    }
}
