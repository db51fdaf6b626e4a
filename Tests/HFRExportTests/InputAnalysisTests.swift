import Foundation
import HFRExport
import HFRMedia
import HFRTestSupport
import Testing

/// The analysis from the container's index (`quick`) against the one that reads every packet
/// (`analyze`): the same rate, time span, spacing and keyframes on every input the index covers.
@Suite struct InputAnalysisTests {
    static let layered = Fixtures.path("layered-120fps.mp4")

    /// Inputs as (name, ffmpeg arguments before the output; nil: the fixture itself).
    static let inputs: [(String, [String]?)] = [
        ("layered-120fps.mp4", nil),
        ("x264-bframes.mp4", nil),
        ("layered-60fps-2layers.mkv", nil),
        ("untagged.mp4", ["-i", layered, "-c", "copy", "-map_metadata", "-1"]),
        ("edit-list.mp4", ["-ss", "1.3", "-i", layered, "-c", "copy", "-map_metadata", "-1"]),
        (
            "ntsc.mov",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120000/1001", "-t", "1", "-c:v", "libx264", "-bf",
                "0", "-preset", "ultrafast",
            ]
        ),
        (
            "vfr.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-t", "1", "-vf",
                "select='not(eq(mod(n\\,5)\\,3))'", "-fps_mode", "passthrough", "-c:v", "libx264", "-bf", "0",
                "-preset", "ultrafast",
            ]
        ),
    ]

    static let ranges: [(start: Rational, end: Rational?)?] = [
        nil, (Rational(0), nil), (Rational(1, 2), Rational(3, 2)),
    ]

    @Test(arguments: inputs.map(\.0))
    func indexAnalysisEqualsPacketAnalysis(name: String) throws {
        let dir = try TemporaryDirectory()
        var path = Fixtures.path(name)
        if let arguments = InputAnalysisTests.inputs.first(where: { $0.0 == name })?.1 {
            path = dir.path(name)
            let r = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments + [path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64 ?? 0
        let isIndexed = name.hasSuffix(".mp4") || name.hasSuffix(".mov")
        for range in InputAnalysisTests.ranges {
            let full = try InputAnalysis.analyze(path: path, fileSize: size, range: range)
            guard let quick = try InputAnalysis.quick(path: path, range: range) else {
                #expect(!isIndexed || full.hasReordering, "\(name): no index analysis")
                continue
            }
            // The tagged fixture without a range is analysed from its header alone.
            if range == nil, full.captureRateSource != .measured { continue }
            let at = "\(name), range \(range.map { "\($0.start)-\($0.end.map(\.description) ?? "")" } ?? "none")"
            #expect(quick.captureRate == full.captureRate, "\(at)")
            #expect(quick.captureRateSource == full.captureRateSource, "\(at)")
            #expect(quick.isEvenlySpaced == full.isEvenlySpaced, "\(at)")
            #expect(quick.origin == full.origin, "\(at)")
            #expect(quick.end == full.end, "\(at)")
            #expect(quick.keyframeBeforeStart == full.keyframeBeforeStart, "\(at)")
            #expect(quick.keyframeAfterEnd == full.keyframeAfterEnd, "\(at)")
            #expect(quick.hasReordering == full.hasReordering, "\(at)")
            #expect(quick.video.index == full.video.index && quick.audio?.index == full.audio?.index, "\(at)")
            #expect(quick.layerSignalling == nil, "\(at)")
        }
    }

    /// Export opens the input once: after the index analysis the demuxer still reads every packet.
    @Test func demuxerReadsEveryPacketAfterQuickAnalysis() throws {
        let demuxer = try Demuxer(url: InputAnalysisTests.layered)
        let analysis = try #require(
            try InputAnalysis.quick(demuxer, path: InputAnalysisTests.layered, range: (Rational(0), nil)))
        let packet = try Packet()
        var frames = 0
        while try demuxer.read(into: packet) {
            if packet.streamIndex == analysis.video.index { frames += 1 }
        }
        #expect(frames == 240)
    }
}
