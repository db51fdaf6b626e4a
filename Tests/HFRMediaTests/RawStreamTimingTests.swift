import Foundation
import HFRMedia
import HFRTestSupport
import Testing

/// A raw H.264 stream (FFmpeg's `-f h264`, Annex B, no frame times) opened with times given from
/// outside: every packet, the stream's description and the counts follow the given times.
@Suite struct RawStreamTimingTests {
    let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory() }

    /// `frames` frames of libx264 (`bframes` B-frames) as a raw stream.
    func rawStream(frames: Int = 30, bframes: Int = 0, name: String = "raw.h264") throws -> String {
        let path = dir.path(name)
        let r = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-frames:v",
                "\(frames)", "-c:v", "libx264", "-bf", "\(bframes)", "-g", "15", "-f", "h264", path,
            ])
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
        return path
    }

    /// Every packet's (pts, dts, duration), read to the end.
    func read(_ demuxer: borrowing Demuxer) throws -> [(pts: Int64?, dts: Int64?, duration: Int64)] {
        let packet = try Packet()
        var times: [(pts: Int64?, dts: Int64?, duration: Int64)] = []
        while try demuxer.read(into: packet) { times.append((packet.pts, packet.dts, packet.duration)) }
        return times
    }

    /// 30 frames at 120 fps as rpicam-vid writes them (µs, 3 decimals), frame 10 and 20 missing.
    static let timesWithGaps: [Rational] = (0..<32).filter { $0 != 10 && $0 != 20 }.map {
        Rational(Rational(Int64($0) * 1_000_000, 120).rounded(), 1_000_000)
    }

    @Test func givesEveryPacketItsTimeInATimeBaseThatHoldsThemExactly() throws {
        let times = Self.timesWithGaps
        let demuxer = try Demuxer(
            input: MediaInput(path: rawStream(), timing: .timestamps(TimestampList(seconds: times, source: "pts.txt"))))
        let info = demuxer.streams[0]
        #expect(info.timeBase == Rational(1, 1_000_000))
        #expect(info.startTime == 0)
        #expect(info.declaredFrameCount == 30)
        #expect(info.averageFrameRate == Rational(29) / times[29])
        #expect(info.realFrameRate == nil)
        let packets = try read(demuxer)
        #expect(packets.map(\.pts) == times.map { ($0 * Rational(1_000_000)).rounded() })
        #expect(packets.map(\.dts) == packets.map(\.pts))
        let steps = zip(packets, packets.dropFirst()).map { $1.pts! - $0.pts! }
        #expect(Array(packets.map(\.duration).dropLast()) == steps)
        #expect(steps.filter { $0 > 10_000 }.count == 2)
        #expect(steps.allSatisfy { (8333...8334).contains($0) || (16_666...16_667).contains($0) })
        #expect(info.duration == packets.last!.pts! + packets.last!.duration)
    }

    @Test func constantRateNumbersTheFrames() throws {
        let demuxer = try Demuxer(
            input: MediaInput(path: rawStream(), timing: .constantRate(Rational(120_000, 1001))))
        let info = demuxer.streams[0]
        #expect(info.timeBase == Rational(1001, 120_000))
        #expect(info.averageFrameRate == Rational(120_000, 1001))
        #expect(info.realFrameRate == Rational(120_000, 1001))
        let packets = try read(demuxer)
        #expect(packets.map(\.pts) == (0..<30).map { Int64($0) })
        #expect(packets.allSatisfy { $0.duration == 1 })
    }

    /// One time too few or too many: the failure names both counts, when the stream ends or as
    /// soon as a frame has no time.
    @Test(arguments: [29, 31])
    func refusesAListThatIsNotOneTimePerFrame(count: Int) throws {
        let times = (0..<count).map { Rational(Int64($0), 120) }
        let demuxer = try Demuxer(
            input: MediaInput(path: rawStream(), timing: .timestamps(TimestampList(seconds: times, source: "pts.txt"))))
        #expect {
            try read(demuxer)
        } throws: { error in
            let failure = error as? AVFailure
            return failure?.stage == .timing
                && failure?.description
                    == "pts.txt has \(count) timestamps but the stream has 30 frames (one per frame needed)"
        }
    }

    /// Frames stored out of presentation order cannot take times in read order: refused.
    @Test func refusesAStreamWithBFrames() throws {
        let demuxer = try Demuxer(
            input: MediaInput(path: rawStream(bframes: 2, name: "b.h264"), timing: .constantRate(Rational(120))))
        #expect {
            try read(demuxer)
        } throws: { error in
            (error as? AVFailure)?.stage == .timing && "\(error)".contains("B-frames")
        }
    }

    /// A container keeps its own times: the timing is not applied, and `isRawStream` says why.
    @Test func leavesContainersAlone() throws {
        let raw = try rawStream()
        let mp4 = dir.path("copy.mp4")
        let r = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-r", "120", "-i", raw, "-c", "copy", mp4])
        #expect(r.status == 0, "\(r.stderr)")
        let plain = try Demuxer(url: mp4)
        let timed = try Demuxer(input: MediaInput(path: mp4, timing: .constantRate(Rational(30))))
        let (timedIsRaw, rawIsRaw) = (timed.isRawStream, try Demuxer(url: raw).isRawStream)
        #expect(!timedIsRaw && rawIsRaw)
        #expect(timed.streams[0].timeBase == plain.streams[0].timeBase)
        #expect(try read(timed).map(\.pts) == read(plain).map(\.pts))
    }
}
