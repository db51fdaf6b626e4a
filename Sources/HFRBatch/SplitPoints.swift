import HFRMedia
import HFRProbe

/// Where a split job's video is cut: at keyframes of the input, so every part starts with a frame
/// that decodes alone and copied video joins bit-exact. Times are real seconds from the first
/// frame, as `hfr export --range` reads them.
public struct SplitPoints: Sendable, Equatable {
    /// The keyframes' times, ascending, the first frame's (0) included.
    public let keyframes: [Rational]
    /// The video's end: the last frame's time plus one frame period (or its duration).
    public let end: Rational

    public init(keyframes: [Rational], end: Rational) {
        self.keyframes = keyframes
        self.end = end
    }

    /// Reads the keyframes of the first video stream of `path` (every video packet's header: the
    /// demuxer reads the packets, nothing is decoded). The failure's cause, or the points.
    public static func read(_ path: String) -> Result<SplitPoints, SplitFailure> {
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(url: path)
        } catch {
            return .failure(SplitFailure(error.description))
        }
        guard let video = demuxer.streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }) else {
            return .failure(SplitFailure("it has no video"))
        }
        let scale = PlaybackTiming.streamScale(path: path, tags: demuxer.metadata, video: video)
        demuxer.discardStreams(except: [video.index])
        var times: [(pts: Int64, key: Bool, duration: Int64)] = []
        do {
            let packet = try Packet()
            while try demuxer.read(into: packet) {
                guard packet.streamIndex == video.index, let pts = packet.pts ?? packet.dts else { continue }
                times.append((pts, packet.isKeyframe, packet.duration))
            }
        } catch {
            return .failure(SplitFailure(error.description))
        }
        guard let origin = times.map(\.pts).min(), let last = times.max(by: { $0.pts < $1.pts }) else {
            return .failure(SplitFailure("its video has no frames"))
        }
        func seconds(_ ticks: Int64) -> Rational { Rational.seconds(ticks - origin, in: video.timeBase) * scale }
        let sorted = times.map(\.pts).sorted()
        let period = sorted.count > 1 ? (sorted.last! - sorted.first!) / Int64(sorted.count - 1) : 0
        let keyframes = Array(Set(times.filter(\.key).map { seconds($0.pts) })).sorted()
        return .success(
            SplitPoints(keyframes: keyframes, end: seconds(last.pts + (last.duration > 0 ? last.duration : period))))
    }

    /// The parts' ranges for `count` parts of `start`…`end` (nil: the video's end): each cut at the
    /// keyframe nearest its even share, strictly inside and increasing; fewer parts when the input
    /// has fewer keyframes there.
    public func ranges(count: Int, start: Rational, end: Rational?) -> [(start: Rational, end: Rational?)] {
        let last = min(end ?? self.end, self.end)
        guard count > 1, last > start else { return [(start, end)] }
        let inside = keyframes.filter { $0 > start && $0 < last }
        var cuts: [Rational] = []
        for i in 1..<count {
            let target = start + (last - start) * Rational(Int64(i), Int64(count))
            guard let nearest = inside.min(by: { distance($0, target) < distance($1, target) }) else { break }
            if nearest > (cuts.last ?? start) { cuts.append(nearest) }
        }
        let bounds = [start] + cuts
        return bounds.enumerated().map { i, a in (a, i + 1 < bounds.count ? bounds[i + 1] : end) }
    }

    private func distance(_ a: Rational, _ b: Rational) -> Rational { a > b ? a - b : b - a }

    /// Parts of about `seconds` each over `start`…`end`.
    public func count(every seconds: Rational, start: Rational, end: Rational?) -> Int {
        let length = min(end ?? self.end, self.end) - start
        guard length > Rational(0), seconds > Rational(0) else { return 1 }
        return max(1, Int((length / seconds).doubleValue.rounded()))
    }
}

/// Why an input cannot be split.
public struct SplitFailure: Error, Sendable {
    public let cause: String
    init(_ cause: String) { self.cause = cause }
}
