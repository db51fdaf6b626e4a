import HFRMedia
import HFRProbe

/// What export needs to know about the input before writing anything, from one read of every
/// packet (no decoding): capture rate, temporal structure, and the frames cuts can snap to.
/// A conform keeps every frame, so when the capture rate is tagged it needs only the header
/// (`quick`): the one pass that copies then also checks every packet.
///
/// Memory is constant: `Prober` keeps counters, and only a few times are remembered here.
public struct InputAnalysis: Sendable {
    public let video: StreamInfo
    public let audio: StreamInfo?
    /// Capture frames per second and where the number came from.
    public let captureRate: Rational
    public let captureRateSource: ProbeReport.CaptureRateSource
    /// How layers are signalled; nil when the packets were not scanned (quick analysis).
    public let layerSignalling: ProbeReport.LayerSignalling?
    /// Levels `LayerPlan` distinguishes.
    public let levelCount: Int
    /// Strides reachable losslessly → highest kept level (see `LayerPlan.losslessStrides`).
    public let losslessStrides: [Int: Int]
    /// Whether all frames are evenly spaced (false: variable frame rate).
    public let isEvenlySpaced: Bool
    /// Presentation time of the earliest video frame: source time 0 of the time map.
    public let origin: Rational
    /// Where the last video frame ends, in source seconds from `origin`.
    public let end: Rational
    /// Source seconds (from `origin`) of the first base-layer frame (temporal id 0).
    public let firstBaseLayerTime: Rational?
    /// Keyframe at or before the requested range start, and the first keyframe at or after its end.
    public let keyframeBeforeStart: Rational?
    public let keyframeAfterEnd: Rational?
    /// Whether decode order differs from presentation order (B-frames).
    public let hasReordering: Bool
    /// The cut that keeps every frame (temporal ids are at most 7).
    public static let allLevels = 7

    /// Reads `path` (`fileSize` bytes); `range` gives the times keyframes are looked up for.
    public static func analyze(
        path: String, fileSize: Int64, range: (start: Rational, end: Rational?)?
    ) throws(ExportFailure) -> InputAnalysis {
        // Time 0 is where presentation starts: after an edit list, the container's start time, with
        // the frames the list hides before it (they may be needed as references) at negative times.
        let presentationStart = try videoStartTime(path)
        var firstTime: Rational?
        var firstBase: Rational?
        var keyBefore: Rational?
        var keyAfter: Rational?
        var reordering = false
        var lastDts: Int64?
        var gaps = [GapRange](repeating: GapRange(), count: allLevels + 1)
        let report: ProbeReport
        do {
            // Without a container start time, times are taken from the first frame read; with
            // B-frames that is the first keyframe, also the earliest presented frame.
            report = try Prober.probe(path: path, fileSize: fileSize) { frame in
                if let pts = frame.pts, let dts = frame.dts, pts != dts { reordering = true }
                if let dts = frame.dts, let last = lastDts, dts < last { reordering = true }
                lastDts = frame.dts ?? lastDts
                if let structure = frame.structure {
                    // Levels as LayerPlan counts them: temporal id, else 1 for non-reference frames.
                    let level = structure.temporalID ?? (structure.isDroppable ? 1 : 0)
                    for cut in min(level, allLevels)...allLevels { gaps[cut].keep(frame.pts) }
                }
                if firstTime == nil, let t = frame.time { firstTime = t }
                guard let t = frame.time, let origin = presentationStart ?? firstTime else { return }
                let relative = t - origin
                if frame.structure?.temporalID == 0 || frame.structure?.temporalID == nil,
                    firstBase == nil || relative < firstBase!
                {
                    firstBase = relative
                }
                if frame.isKeyframe, let r = range {
                    if relative <= r.start, keyBefore.map({ relative > $0 }) ?? true { keyBefore = relative }
                    if let e = r.end, relative >= e, keyAfter.map({ relative < $0 }) ?? true { keyAfter = relative }
                }
            }
        } catch {
            switch error {
            case .av(let f): throw .reading(f)
            case .truncated(let stream, let read, let declared):
                throw .badInput("truncated: stream #\(stream) has \(read) of the \(declared) frames its index lists")
            case .corruptPacket(let stream, let frame, let position):
                let at = position.map { " at byte \($0)" } ?? ""
                throw .badInput("truncated or corrupt: stream #\(stream) frame \(frame)\(at) is incomplete")
            }
        }
        guard let structure = report.video else { throw .badInput("no video stream") }
        let video = report.streams[structure.streamIndex].info
        guard video.codecName == "h264" else {
            throw .badInput("video is \(video.codecName), not H.264 (export works on H.264 only)")
        }
        guard structure.frameCount > 0 else { throw .badInput("the video stream has no frames") }
        guard let capture = structure.captureFrameRate, structure.captureFrameRateSource != .unknown else {
            throw .badInput("capture rate unknown: no com.android.capture.fps tag and no frame timestamps")
        }
        let stream = report.streams[structure.streamIndex]
        guard let firstPts = stream.firstPts, let duration = stream.measuredDuration, duration > Rational(0) else {
            throw .badInput("capture rate unknown: the video frames carry no timestamps")
        }
        let earliest = Rational.seconds(firstPts, in: video.timeBase)
        let origin = presentationStart.map { $0 > earliest ? $0 : earliest } ?? earliest
        var rate = capture
        // A rate measured from coarse timestamps (Matroska's milliseconds: 59000/983) is the
        // container's declared rate when that is within 1 %: the exact value the timestamps round.
        if structure.captureFrameRateSource == .measured,
            let declared = video.realFrameRate ?? video.averageFrameRate,
            abs(((declared - capture) / declared).doubleValue) < 0.01
        {
            rate = declared
        }
        let evenCuts = Set(gaps.indices.filter { gaps[$0].isEven })
        return InputAnalysis(
            video: video, audio: report.streams.first { $0.info.kind == .audio }?.info, captureRate: rate,
            captureRateSource: structure.captureFrameRateSource, layerSignalling: structure.layerSignalling,
            levelCount: LayerPlan.levelCount(structure),
            losslessStrides: LayerPlan.losslessStrides(structure, evenCuts: evenCuts),
            isEvenlySpaced: reordering || evenCuts.contains(allLevels),
            origin: origin, end: earliest + duration - origin, firstBaseLayerTime: firstBase,
            keyframeBeforeStart: keyBefore, keyframeAfterEnd: keyAfter, hasReordering: reordering)
    }

    /// From the header alone, for exports that keep every frame; nil when that is not enough
    /// (no capture-rate tag, no declared duration).
    public static func quick(path: String) throws(ExportFailure) -> InputAnalysis? {
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(url: path)
        } catch {
            throw .reading(error)
        }
        let streams = demuxer.streams
        guard let video = streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }) else {
            throw .badInput("no video stream")
        }
        guard video.codecName == "h264" else {
            throw .badInput("video is \(video.codecName), not H.264 (export works on H.264 only)")
        }
        guard let (rate, source) = Prober.declaredCaptureRate(tags: demuxer.metadata, streamTags: video.metadata),
            let duration = video.durationSeconds, duration > Rational(0)
        else { return nil }
        return InputAnalysis(
            video: video, audio: streams.first { $0.kind == .audio }, captureRate: rate, captureRateSource: source,
            layerSignalling: nil, levelCount: allLevels + 1, losslessStrides: [1: allLevels], isEvenlySpaced: true,
            origin: video.startSeconds ?? Rational(0), end: duration, firstBaseLayerTime: nil,
            keyframeBeforeStart: nil, keyframeAfterEnd: nil, hasReordering: false)
    }

    /// The main video stream's start time as the container declares it (edit lists applied).
    private static func videoStartTime(_ path: String) throws(ExportFailure) -> Rational? {
        do {
            let demuxer = try Demuxer(url: path)
            return demuxer.streams.first { $0.kind == .video && !$0.isAttachedPicture }?.startSeconds
        } catch {
            throw .reading(error)
        }
    }
}
