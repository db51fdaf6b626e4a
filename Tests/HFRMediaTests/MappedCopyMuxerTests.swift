import Foundation
import HFRMedia
import HFRTestSupport
import Testing

/// `Muxer(path:format:copyingFrom:)`: packets that view a mapped input, their payload copied file to
/// file by the kernel, give the same file as packets read into memory and written.
@Suite struct MappedCopyMuxerTests {
    /// Writes the video of `input` to `output`: read packets through an ordinary muxer, or views of
    /// the index's samples through the copying one.
    func remux(_ input: String, to output: String, mapped: Bool) throws {
        let demuxer = try Demuxer(url: input)
        let video = try #require(demuxer.streams.first { $0.kind == .video })
        let file = try MappedFile(path: input)
        var muxer =
            mapped
            ? try Muxer(path: output, format: .mp4, copyingFrom: file) : try Muxer(path: output, format: .mp4)
        let index = try muxer.addStream(
            copying: demuxer.codecParameters(ofStream: video.index), timeBase: video.timeBase)
        try muxer.writeHeader()
        if mapped {
            let entries = demuxer.indexEntries(ofStream: video.index)
            for (i, e) in entries.enumerated() {
                let bytes = UnsafeRawBufferPointer(rebasing: file.bytes[Int(e.position)..<Int(e.position) + e.size])
                let packet = try Packet.view(of: bytes, in: file)
                packet.pts = e.timestamp
                packet.dts = e.timestamp
                packet.duration = (i + 1 < entries.count ? entries[i + 1].timestamp : video.duration!) - e.timestamp
                packet.isKeyframe = e.isKeyframe
                try muxer.write(packet, from: video.timeBase, to: index)
            }
        } else {
            demuxer.discardStreams(except: [video.index])
            let packet = try Packet()
            while try demuxer.read(into: packet) {
                guard packet.streamIndex == video.index else { continue }
                try muxer.write(packet, from: video.timeBase, to: index)
            }
        }
        try muxer.finish()
    }

    @Test func kernelCopiedOutputEqualsTheWrittenOne() throws {
        let dir = try TemporaryDirectory()
        let input = Fixtures.path("layered-120fps.mp4")
        try remux(input, to: dir.path("read.mp4"), mapped: false)
        try remux(input, to: dir.path("mapped.mp4"), mapped: true)
        let read = try Data(contentsOf: URL(fileURLWithPath: dir.path("read.mp4")))
        let mapped = try Data(contentsOf: URL(fileURLWithPath: dir.path("mapped.mp4")))
        #expect(read.count > 100_000)
        #expect(mapped == read)
        #expect(try MediaChecks.decodeErrors(dir.path("mapped.mp4")).isEmpty)
    }

    @Test func aViewPointsIntoTheFileWithoutCopying() throws {
        let input = Fixtures.path("layered-120fps.mp4")
        let file = try MappedFile(path: input)
        let slice = UnsafeRawBufferPointer(rebasing: file.bytes[100..<164])
        let packet = try Packet.view(of: slice, in: file)
        #expect(packet.size == 64 && packet.position == 100)
        packet.withData { #expect($0.baseAddress == slice.baseAddress) }
    }
}
