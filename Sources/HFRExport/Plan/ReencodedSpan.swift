import HFRMedia
import HFRProbe

/// A stretch of a ramp re-encoded while the rest is copied losslessly: its output frames show
/// source times `from..<to`; decoding starts at the keyframe `decodeFrom` (at or before `from`),
/// and copying resumes at `to`, a keyframe, so the copied packets after it decode on their own.
public struct ReencodedSpan: Sendable, Equatable {
    /// Stream seconds from the origin.
    public let from: Rational
    /// nil: re-encoded to the end.
    public let to: Rational?
    public let decodeFrom: Rational

    /// Whether a frame at source time `t` is shown by the span's output frames (not copied).
    func covers(_ t: Rational) -> Bool { t >= from && to.map { t < $0 } ?? true }

    /// Whether the span's decoder reads the frame at `t`: from `decodeFrom` through the keyframe
    /// at `to` (the later neighbour of its last slots).
    func decodes(_ t: Rational) -> Bool { t >= decodeFrom && to.map { t <= $0 } ?? true }
}

/// When a ramp mixes copied and re-encoded segments in one output (`--reencode auto`): the
/// re-encoded stretches must splice into the copied stream without changing its configuration.
/// That holds when the input is H.264 without reordering in an avcC container and an OpenH264
/// encoder set up like the one that recorded it gives the same SPS and PPS, byte for byte (as
/// `hfr record` writes it): then the re-encoded frames start with an IDR, the copied ones resume
/// at a keyframe, and one sample description serves both. Otherwise the whole video is re-encoded.
enum MixedReencode {
    struct Splice {
        let spans: [ReencodedSpan]
        let encoder: H264Encoder.Settings
        let segments: Set<Int>
    }

    /// The splice for re-encoding segments `failing` of `map` and copying the rest, or why not.
    static func splice(
        _ map: TimeMap, _ analysis: InputAnalysis, failing: [Int], end: Rational, hasRange: Bool
    ) -> Result<Splice, Refusal> {
        guard !hasRange else { return .failure(Refusal("with --range")) }
        guard failing.count < map.segments.count else { return .failure(Refusal("no segment can be copied")) }
        guard analysis.video.codecName == "h264" else { return .failure(Refusal("only H.264 is spliced")) }
        guard !analysis.hasReordering else { return .failure(Refusal("its B-frames are decoded out of order")) }
        guard let config = AVCConfiguration(avcC: analysis.video.extradata) else {
            return .failure(Refusal("its H.264 is not stored as MP4, MOV and MKV store it (avcC)"))
        }
        guard let encoder = matchingEncoder(analysis, config: config) else {
            return .failure(Refusal("its encoder's parameter sets differ from OpenH264's (not an hfr recording)"))
        }
        let spans = self.spans(map, failing: failing, keyframes: analysis.keyframes, end: end)
        guard let spans, !(spans.count == 1 && spans[0].from <= Rational(0) && spans[0].to == nil) else {
            return .failure(Refusal("no keyframe to resume copying at"))
        }
        return .success(Splice(spans: spans, encoder: encoder, segments: Set(failing)))
    }

    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The re-encoded stretches: each run of consecutive failing segments, from its start to the
    /// first keyframe at or after its end (nil: to the end), merged where they meet; nil when a
    /// stretch has no keyframe to start decoding at.
    static func spans(
        _ map: TimeMap, failing: [Int], keyframes: [Rational], end: Rational
    ) -> [ReencodedSpan]? {
        let keys = keyframes.sorted()
        var spans: [ReencodedSpan] = []
        for i in failing.sorted() {
            let segment = map.segments[i]
            let from = max(segment.start, Rational(0))
            let to = segment.end.flatMap { e in keys.first { $0 >= e } }.flatMap { $0 < end ? $0 : nil }
            if let last = spans.last, last.to.map({ $0 >= from }) ?? true {
                spans[spans.count - 1] = ReencodedSpan(from: last.from, to: to, decodeFrom: last.decodeFrom)
                continue
            }
            guard let key = keys.last(where: { $0 <= from }) else { return nil }
            spans.append(ReencodedSpan(from: from, to: to, decodeFrom: key))
        }
        return spans
    }

    /// OpenH264 settings whose parameter sets are the input's, tried the way `hfr record` sets the
    /// encoder up (at the capture or stream rate, the layers the stream has); nil when none match.
    static func matchingEncoder(_ analysis: InputAnalysis, config: AVCConfiguration) -> H264Encoder.Settings? {
        let (width, height) = (analysis.video.width, analysis.video.height)
        var rates = [analysis.captureRate]
        if analysis.streamRate != analysis.captureRate { rates.append(analysis.streamRate) }
        var layerCounts = [analysis.levelCount]
        for n in 1...4 where !layerCounts.contains(n) { layerCounts.append(n) }
        for rate in rates {
            for layers in layerCounts where (1...4).contains(layers) {
                var settings = H264Encoder.Settings(
                    width: width, height: height, frameRate: rate, temporalLayers: layers,
                    bitrate: H264Encoder.Settings.defaultBitrate(width: width, height: height, rate: rate),
                    keyframeInterval: H264Encoder.Settings.keyframeInterval(rate: rate, temporalLayers: layers),
                    threads: H264Encoder.Settings.defaultThreads(width: width, height: height, frameRate: rate))
                settings.videoSignal = analysis.video.presentation
                guard let encoder = try? H264Encoder(settings), let sets = try? encoder.parameterSets() else {
                    continue
                }
                if AVCConfiguration(annexB: sets).hasSameParameterSets(as: config) { return settings }
            }
        }
        return nil
    }
}

extension InputAnalysis {
    /// Frames per second of stream time.
    var streamRate: Rational { captureRate * streamScale }
}
