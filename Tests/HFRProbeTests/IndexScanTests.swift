import Foundation
import HFRMedia
import HFRTestSupport
import Testing

@testable import HFRProbe

/// The container's index stands in for a packet scan only where it gives the same answers: every
/// frame's timestamps, size and keyframe flag, and the measured rate and duration, exactly.
@Suite struct IndexScanTests {
    struct Input: Sendable, CustomTestStringConvertible {
        let name: String
        /// Makes the file in the directory from the fixtures; returns its path.
        let make: @Sendable (TemporaryDirectory) throws -> String
        /// Whether the index can stand in for the packets.
        let isIndexed: Bool
        var testDescription: String { name }
    }

    static let layered = Fixtures.path("layered-120fps.mp4")

    static func fixture(_ name: String, isIndexed: Bool) -> Input {
        Input(name: name, make: { _ in Fixtures.path(name) }, isIndexed: isIndexed)
    }

    /// `ffmpeg ARGUMENTS… dir/NAME`, returning that path.
    static func made(_ name: String, isIndexed: Bool, _ arguments: [String]) -> Input {
        Input(
            name: name,
            make: { dir in
                let path = dir.path(name)
                let r = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments + [path])
                guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
                return path
            }, isIndexed: isIndexed)
    }

    static let inputs: [Input] = [
        fixture("layered-120fps.mp4", isIndexed: true),
        // Composition offsets (B-frames): the index's decode times are not presentation times.
        fixture("x264-bframes.mp4", isIndexed: false),
        // Matroska's index is its cues: a few keyframes, not every frame.
        fixture("layered-60fps-2layers.mkv", isIndexed: false),
        made("untagged.mp4", isIndexed: true, ["-i", layered, "-c", "copy", "-map_metadata", "-1"]),
        made("faststart.mp4", isIndexed: true, ["-i", layered, "-c", "copy", "-movflags", "+faststart"]),
        made("layered.mov", isIndexed: true, ["-i", layered, "-c", "copy"]),
        // Starts before the first keyframe it keeps: an edit list hides the frames before the cut.
        made("edit-list.mp4", isIndexed: true, ["-ss", "1.3", "-i", layered, "-c", "copy"]),
        made("video-only.mp4", isIndexed: true, ["-i", layered, "-an", "-c", "copy"]),
        made(
            "ntsc.mp4", isIndexed: true,
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120000/1001", "-t", "1", "-c:v", "libx264", "-bf",
                "0", "-preset", "ultrafast",
            ]),
        // Variable frame rate: every fifth frame missing.
        made(
            "vfr.mp4", isIndexed: true,
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-t", "1", "-vf",
                "select='not(eq(mod(n\\,5)\\,3))'", "-fps_mode", "passthrough", "-c:v", "libx264", "-bf", "0",
                "-preset", "ultrafast",
            ]),
        made(
            "fragmented.mp4", isIndexed: false,
            ["-i", layered, "-c", "copy", "-movflags", "+frag_keyframe+empty_moov"]),
    ]

    @Test(arguments: inputs)
    func indexGivesWhatReadingEveryPacketGives(input: Input) throws {
        let dir = try TemporaryDirectory()
        let path = try input.make(dir)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64 ?? 0
        var read: [ProbedFrame] = []
        let report = try Prober.probe(path: path, fileSize: size) { read.append($0) }
        var indexed: [ProbedFrame] = []
        let demuxer = try Demuxer(url: path)
        let scan = IndexScan.scan(demuxer, path: path) { indexed.append($0) }
        #expect((scan != nil) == input.isIndexed)
        guard let scan else { return }
        let video = try #require(report.video)
        let stream = report.streams[video.streamIndex]
        #expect(scan.video.index == video.streamIndex)
        #expect(scan.stream.packetCount == stream.packetCount)
        #expect(scan.stream.byteCount == stream.byteCount)
        #expect(scan.stream.firstPts == stream.firstPts)
        #expect(scan.stream.measuredFrameRate == stream.measuredFrameRate)
        #expect(scan.stream.measuredDuration == stream.measuredDuration)
        #expect(scan.captureFrameRate == video.captureFrameRate)
        #expect(scan.captureFrameRateSource == video.captureFrameRateSource)
        #expect(indexed.count == read.count)
        for (a, b) in zip(indexed, read) {
            #expect(
                a.index == b.index && a.pts == b.pts && a.dts == b.dts && a.time == b.time && a.size == b.size
                    && a.isKeyframe == b.isKeyframe && a.isContainerDisposable == b.isContainerDisposable,
                "frame \(b.index): index \(a), packets \(b)")
        }
    }

    /// The entries themselves: every sample of the MP4 fixture, where its packet is.
    @Test func entriesListEverySampleWhereItsPacketIs() throws {
        let demuxer = try Demuxer(url: IndexScanTests.layered)
        let entries = demuxer.indexEntries(ofStream: 0)
        #expect(entries.count == 240)
        #expect(entries.filter(\.isKeyframe).map(\.timestamp) == [0, 90000])
        let packet = try Packet()
        var i = 0
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == 0 else { continue }
            #expect(entries[i].position == packet.position && entries[i].size == packet.size)
            i += 1
        }
    }
}
