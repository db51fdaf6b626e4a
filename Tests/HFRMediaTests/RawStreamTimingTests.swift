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

    /// Frames stored out of presentation order (was refused): each packet takes the time of the
    /// picture it shows, as the encoder's own container says, and decode times stay below them.
    @Test(arguments: [
        ("h264", ["-c:v", "libx264", "-bf", "2"]),
        ("hevc", ["-c:v", "libx265", "-x265-params", "bframes=3:log-level=error"]),
    ])
    func givesBFramesTheTimesOfThePicturesTheyShow(format: String, encoder: [String]) throws {
        let mp4 = dir.path("b-\(format).mp4")
        let made = try Tool.run(
            "ffmpeg",
            ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-frames:v", "30"]
                + encoder + ["-g", "15", mp4])
        let raw = dir.path("b.\(format)")
        let copied = try Tool.run(
            "ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", mp4, "-c", "copy", "-f", format, raw])
        #expect(made.status == 0 && copied.status == 0, "\(made.stderr) \(copied.stderr)")
        // The container's presentation times, as frame numbers from its first.
        let shown = try read(Demuxer(url: mp4)).map { $0.pts! }
        let order = shown.map { t in shown.filter { $0 < t }.count }
        #expect(order != Array(0..<30), "the encoder made no B-frames")

        let packets = try read(Demuxer(input: MediaInput(path: raw, timing: .constantRate(Rational(120)))))
        #expect(packets.map { $0.pts! } == order.map { Int64($0) })
        let dts = packets.map { $0.dts! }
        #expect(zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(packets, dts).allSatisfy { $0.pts! >= $1 })

        let times = Self.timesWithGaps
        let listed = try read(
            Demuxer(
                input: MediaInput(path: raw, timing: .timestamps(TimestampList(seconds: times, source: "pts.txt")))))
        #expect(listed.map { $0.pts! } == order.map { (times[$0] * Rational(1_000_000)).rounded() })
        #expect(zip(listed, listed.dropFirst()).allSatisfy { $0.dts! < $1.dts! && $0.dts! <= $0.pts! })
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
