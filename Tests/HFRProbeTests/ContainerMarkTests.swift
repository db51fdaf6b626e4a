import Foundation
import HFRMedia
import HFRTestSupport
import Testing

@testable import HFRProbe

/// The MP4 `sdtp` box, written by the muxer from packet flags and read back by the prober.
@Suite struct ContainerMarkTests {
    /// FFmpeg's muxer writes `sdtp` from packet flags; hfr reads it back (FFmpeg 5.1's demuxer does not).
    @Test func disposableFlagsBecomeSdtpAndReadBack() throws {
        let dir = try TemporaryDirectory()
        let input = Fixtures.path("x264-bframes.mp4")
        let output = dir.path("marked.mp4")
        var droppable = 0
        do {
            let demuxer = try Demuxer(url: input)
            let video = demuxer.streams[0]
            let packaging = NALPackaging(extradata: video.extradata)
            var muxer = try Muxer(path: output)
            let index = try muxer.addStream(copying: demuxer.codecParameters(ofStream: 0), timeBase: video.timeBase)
            try muxer.writeHeader()
            let packet = try Packet()
            while try demuxer.read(into: packet) {
                guard packet.streamIndex == 0 else { continue }
                let s = packet.withData { FrameStructure(packet: $0, packaging: packaging) }
                if s.isDroppable { droppable += 1 }
                packet.isDisposable = s.isDroppable
                try muxer.write(packet, from: video.timeBase, to: index)
            }
            try muxer.finish()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(bytes.range(of: Data("sdtp".utf8)) != nil)
        #expect(droppable > 0)

        let report = try Prober.probe(path: output, fileSize: Int64(bytes.count))
        let v = try #require(report.video)
        #expect(v.droppableFrameCount == droppable)
        #expect(v.containerMarkedCount == droppable)
        #expect(v.markedButReferencedCount == 0 && v.droppableButUnmarkedCount == 0)
    }
}

/// Fragment sample flags: FFmpeg 5.1's muxer never marks fragments disposable, so the boxes are built here.
@Suite struct FragmentFlagTests {
    func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        be32(UInt32(body.count + 8)) + Array(type.utf8) + body
    }

    func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    let dependedOn: UInt32 = 0x0040_0000  // sample_is_depended_on = 1
    let disposable: UInt32 = 0x0080_0000  // sample_is_depended_on = 2

    @Test func truncSampleFlagsDefaultsAndFirstSampleFlagsAreRead() throws {
        let tkhd = box(
            "tkhd", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + be32(7) + [UInt8](repeating: 0, count: 68))
        let trex = box("trex", [0, 0, 0, 0] + be32(7) + be32(1) + be32(0) + be32(0) + be32(disposable))
        let moov = box("moov", box("trak", tkhd) + box("mvex", trex))
        // Run 1: per-sample flags (referenced, disposable, disposable).
        let tfhd1 = box("tfhd", [0, 0x02, 0, 0] + be32(7))
        let trun1 = box("trun", [0, 0, 0x04, 0x00] + be32(3) + be32(dependedOn) + be32(disposable) + be32(disposable))
        // Run 2: first_sample_flags (referenced), then the trex default (disposable) for the rest.
        let tfhd2 = box("tfhd", [0, 0x02, 0, 0] + be32(7))
        let trun2 = box("trun", [0, 0, 0, 0x04] + be32(2) + be32(dependedOn))
        // Run 3: tfhd default_sample_flags (referenced) overrides trex.
        let tfhd3 = box("tfhd", [0, 0x02, 0, 0x20] + be32(7) + be32(dependedOn))
        let trun3 = box("trun", [0, 0, 0, 0] + be32(1))
        let file =
            box("ftyp", Array("isom".utf8) + be32(0)) + moov
            + box("moof", box("traf", tfhd1 + trun1)) + box("mdat", [1, 2, 3])
            + box("moof", box("traf", tfhd2 + trun2)) + box("moof", box("traf", tfhd3 + trun3))
        let dir = try TemporaryDirectory()
        let path = dir.path("fragments.mp4")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let flags = try #require(MP4SampleFlags(path: path))
        #expect(flags.hasMarks)
        #expect((0..<6).map { flags.isDisposable(track: 0, sample: $0) } == [false, true, true, false, true, false])
    }
}
