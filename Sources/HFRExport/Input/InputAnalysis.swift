import HFRMedia
import HFRProbe

/// What export needs to know about the input before writing anything, from one read of every
/// packet (no decoding): capture rate, temporal structure, and the frames cuts can snap to.
/// An export that keeps every frame needs no bitstream facts (`quick`): the header when the capture
/// rate is tagged, else the container's index, which holds every frame's time in MP4/MOV. Then the
/// one pass that copies is the only read of the packets, and it also checks every one.
///
/// Memory is constant: `Prober` keeps counters, and only a few times are remembered here.
public struct InputAnalysis: Sendable {
    public let video: StreamInfo
    public let audio: StreamInfo?
    /// Capture frames per second and where the number came from.
    public let captureRate: Rational
    public let captureRateSource: ProbeReport.CaptureRateSource
    /// Real seconds per second of the stream: 1 when it plays in real time, 1/4 for a 4× slow-motion
    /// stream (see `PlaybackTiming`). Every time below is stream time; the plan converts.
    public let streamScale: Rational
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
    /// Source seconds (from `origin`) of every keyframe, in decode order; empty when the packets
    /// were not read (quick analysis). A ramp that copies after a re-encoded segment resumes at one.
    public internal(set) var keyframes: [Rational] = []
    /// Video frames that have no presentation time (packed MPEG-4 B-frames in AVI): a copy cannot
    /// place them, so their export is decoded.
    public internal(set) var untimedFrames = 0
    /// The presentation time (ticks) of a first frame shown early (`GapRange.leadingOffsetTicks`),
    /// which the copy puts at `origin`, one period before the second; nil when there is none.
    public internal(set) var leadingFrame: Int64?
    /// Frames left out of a constant rate: every gap a whole number of periods
    /// (`GapRange.regularPeriod`), so their times lie on that rate's grid.
    public internal(set) var isOnGrid = false
    /// `--deflicker`: the flicker the pictures show (`FlickerScan`); nil when not asked.
    public internal(set) var flicker: DeflickerFinding?
    /// The cut that keeps every frame (temporal ids are at most 7).
    public static let allLevels = 7

    /// Reads `path` (`fileSize` bytes); `range` (real time) gives the times keyframes are looked up for.
    public static func analyze(
        path: String, fileSize: Int64, range: (start: Rational, end: Rational?)?, timing: InputTiming? = nil
    ) throws(ExportFailure) -> InputAnalysis {
        // Time 0 is where presentation starts: after an edit list, the container's start time, with
        // the frames the list hides before it (they may be needed as references) at negative times.
        let (presentationStart, scale) = try videoStartTime(MediaInput(path: path, timing: timing))
        var times = FrameTimes(presentationStart: presentationStart, range: streamRange(range, scale: scale))
        let report: ProbeReport
        do {
            report = try Prober.probe(path: path, fileSize: fileSize, timing: timing) { times.add($0) }
        } catch {
            if case .av(let f) = error { throw .reading(f) }
            throw .badInput(error.cause ?? "unreadable")
        }
        if let fault = times.fault { throw .badInput(fault) }
        guard let structure = report.video else { throw .badInput("no video stream") }
        let video = report.streams[structure.streamIndex].info
        try checkCodec(video)
        try TimestampCheck.timeBase(video.timeBase)
        guard structure.frameCount > 0 else { throw .badInput("the video stream has no frames") }
        // As the probe measured (`GapRange.takesWholeFirstGapAsOffset`): an index listing entries
        // that are no frames starts the video at its second frame's period.
        let listsEmptyEntries = video.declaredFrameCount > Int64(report.streams[structure.streamIndex].packetCount)
        for cut in times.gaps.indices { times.gaps[cut].takesWholeFirstGapAsOffset = listsEmptyEntries }
        // Layer cuts of reordered streams are not planned from their spacing (as before the gaps
        // were read in presentation order): only the full stream's spacing is used for them.
        let evenCuts = times.hasReordering ? [] : Set(times.gaps.indices.filter { times.gaps[$0].isEven })
        var analysis = try InputAnalysis(
            video: video, audio: TrackChoice.audio(report.streams.map(\.info), video: video).first,
            stream: report.streams[structure.streamIndex],
            capture: (structure.captureFrameRate, structure.captureFrameRateSource, scale), times: times,
            layers: (
                structure.layerSignalling, LayerPlan.levelCount(structure),
                LayerPlan.losslessStrides(structure, evenCuts: evenCuts)
            ))
        analysis.untimedFrames = times.untimed
        return analysis
    }

    /// Without reading the packets, for exports that keep every frame: from the header when the
    /// capture rate is tagged and no `range` needs keyframes, else from the container's index
    /// (MP4/MOV without B-frames: every frame's time and keyframe flag, see `IndexScan`). Nil when
    /// neither is enough; `analyze` reads the packets then.
    public static func quick(
        path: String, range: (start: Rational, end: Rational?)? = nil, timing: InputTiming? = nil
    ) throws(ExportFailure) -> InputAnalysis? {
        let demuxer = try ExportFailure.reading { () throws(AVFailure) in
            try Demuxer(input: MediaInput(path: path, timing: timing))
        }
        return try quick(demuxer, path: path, range: range)
    }

    /// `quick` on an open `demuxer` (of `path`), which can then read the packets: the index is
    /// read without moving it.
    public static func quick(
        _ demuxer: borrowing Demuxer, path: String, range: (start: Rational, end: Rational?)? = nil
    ) throws(ExportFailure) -> InputAnalysis? {
        let streams = demuxer.streams
        guard let video = streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }) else {
            throw .badInput("no video stream")
        }
        try checkCodec(video)
        try TimestampCheck.timeBase(video.timeBase)
        // An MP4/MOV header listing no frames is fragmented or has an unreadable sample table: the
        // index (every fragment's samples) says which.
        let isUncounted = video.declaredFrameCount == 0 && Container.isISO(demuxer: demuxer.formatName)
        let audio = TrackChoice.audio(streams, video: video).first
        let scale = PlaybackTiming.streamScale(path: path, tags: demuxer.metadata, video: video)
        if range == nil, !isUncounted,
            let (rate, source) = Prober.declaredCaptureRate(
                path: path, tags: demuxer.metadata, streamTags: video.metadata),
            let duration = video.durationSeconds, duration > Rational(0)
        {
            // Matroska declares no count: the copy pass checks its frames and times.
            try TimestampCheck.rate(frames: Int(video.declaredFrameCount), in: duration)
            return InputAnalysis(
                video: video, audio: audio, captureRate: rate, captureRateSource: source, streamScale: scale,
                layerSignalling: nil,
                levelCount: allLevels + 1, losslessStrides: [1: allLevels], isEvenlySpaced: true,
                origin: video.startSeconds ?? Rational(0), end: duration, firstBaseLayerTime: nil,
                keyframeBeforeStart: nil, keyframeAfterEnd: nil, hasReordering: false)
        }
        var times = FrameTimes(presentationStart: video.startSeconds, range: streamRange(range, scale: scale))
        guard let scan = IndexScan.scan(demuxer, path: path, onFrame: { times.add($0) }) else { return nil }
        if let jump = scan.jump { throw .badInput(jump.cause) }
        if let fault = times.fault { throw .badInput(fault) }
        return try InputAnalysis(
            video: video, audio: audio, stream: scan.stream,
            capture: (scan.captureFrameRate, scan.captureFrameRateSource, scale), times: times,
            layers: (nil, allLevels + 1, [1: allLevels]))
    }

    /// Any codec FFmpeg names can be copied (whether the output container takes it is asked when
    /// the output is set up) or, where frames change, decoded for re-encoding.
    private static func checkCodec(_ video: StreamInfo) throws(ExportFailure) {
        guard video.codecID != 0 else {
            throw .badInput("video codec unknown to FFmpeg: cannot be copied or decoded")
        }
    }

    /// The main video stream's start time as the container declares it (edit lists applied), and
    /// its stream scale (`PlaybackTiming`).
    private static func videoStartTime(_ input: MediaInput) throws(ExportFailure) -> (Rational?, Rational) {
        let demuxer = try ExportFailure.reading { () throws(AVFailure) in try Demuxer(input: input) }
        guard let video = demuxer.streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }) else {
            return (nil, Rational(1))
        }
        return (video.startSeconds, PlaybackTiming.streamScale(path: input.path, tags: demuxer.metadata, video: video))
    }

    /// A real-time range in stream seconds.
    private static func streamRange(
        _ range: (start: Rational, end: Rational?)?, scale: Rational
    ) -> (start: Rational, end: Rational?)? {
        range.map { ($0.start / scale, $0.end.map { $0 / scale }) }
    }
}

extension InputAnalysis {
    /// Evenly spaced to within a tick, or reordered and not plainly variable (see `GapRange`).
    fileprivate static func isEvenlySpaced(_ gaps: GapRange) -> Bool {
        gaps.isEven || (gaps.isReordered && !gaps.isVariable)
    }

    /// From measured timing: the capture rate, source time 0 and the end.
    fileprivate init(
        video: StreamInfo, audio: StreamInfo?, stream: ProbeReport.Stream,
        capture: (rate: Rational?, source: ProbeReport.CaptureRateSource, scale: Rational), times: FrameTimes,
        layers: (signalling: ProbeReport.LayerSignalling?, levelCount: Int, losslessStrides: [Int: Int])
    ) throws(ExportFailure) {
        guard let captureRate = capture.rate, capture.source != .unknown else {
            throw .badInput("capture rate unknown: no com.android.capture.fps tag and no frame timestamps")
        }
        guard let firstPts = stream.firstPts, let duration = stream.measuredDuration, duration > Rational(0) else {
            throw .badInput("capture rate unknown: the video frames carry no timestamps")
        }
        guard stream.frameCount > 0 else { throw .badInput("the video stream has no frames") }
        try TimestampCheck.rate(frames: stream.frameCount, in: duration)
        let earliest = Rational.seconds(firstPts, in: video.timeBase)
        // A first frame shown early (a muxer's start offset, `GapRange.leadingOffsetTicks`): the
        // video starts one period before the second frame, and the copy puts the first one there.
        let start = stream.leadingFrame.map { Rational.seconds($0.start, in: video.timeBase) } ?? earliest
        let origin = times.presentationStart.map { $0 > start ? $0 : start } ?? start
        // The rate `Prober` measured (`FrameRateMeasurement`): `hfr probe` reports the same.
        let rate = captureRate
        self.init(
            video: video, audio: audio, captureRate: rate, captureRateSource: capture.source,
            streamScale: capture.scale, layerSignalling: layers.signalling, levelCount: layers.levelCount,
            losslessStrides: layers.losslessStrides,
            isEvenlySpaced: InputAnalysis.isEvenlySpaced(times.gaps[InputAnalysis.allLevels]),
            origin: origin, end: earliest + duration - origin,
            firstBaseLayerTime: layers.signalling == nil ? nil : times.firstBase,
            keyframeBeforeStart: times.keyBefore, keyframeAfterEnd: times.keyAfter, hasReordering: times.hasReordering)
        if let early = stream.leadingFrame, origin == start { leadingFrame = early.pts }
        isOnGrid = times.gaps[InputAnalysis.allLevels].regularPeriod != nil
        // The frame times were taken from the first frame read when the container gave no start.
        let shift = (times.presentationStart ?? times.firstTime ?? origin) - origin
        keyframes = times.keyframes.map { $0 + shift }
    }
}

/// What the analysis remembers while the video frames go by, in decode order (from the packets or
/// the index): a few times, and the set of presentation times (to refuse one presented twice).
private struct FrameTimes {
    let presentationStart: Rational?
    let range: (start: Rational, end: Rational?)?
    var firstTime: Rational?
    var firstBase: Rational?
    var keyBefore: Rational?
    var keyAfter: Rational?
    var keyframes: [Rational] = []
    var hasReordering = false
    var lastDts: Int64?
    var frameCount = 0
    var untimed = 0
    /// The first timestamp fault met (`TimestampCheck`): a repeated decode or presentation time.
    var fault: String?
    var presented = TimestampCheck.Presentation()
    /// Spacing of the frames each level cut keeps; without bitstream facts only "all levels" is fed.
    var gaps = [GapRange](repeating: GapRange(), count: InputAnalysis.allLevels + 1)

    init(presentationStart: Rational?, range: (start: Rational, end: Rational?)?) {
        self.presentationStart = presentationStart
        self.range = range
    }

    mutating func add(_ frame: ProbedFrame) {
        if let pts = frame.pts, let dts = frame.dts, pts != dts { hasReordering = true }
        if let dts = frame.dts, let last = lastDts, dts < last { hasReordering = true }
        frameCount += 1
        if frame.pts == nil { untimed += 1 }
        if fault == nil, let dts = frame.dts, let last = lastDts, dts == last {
            fault = TimestampCheck.repeated(atFrame: frameCount)
        }
        if fault == nil {
            do { try presented.check(frame.pts) } catch { fault = TimestampCheck.presentedTwice(atFrame: frameCount) }
        }
        lastDts = frame.dts ?? lastDts
        if let structure = frame.structure {
            // Levels as LayerPlan counts them: temporal id, else 1 for non-reference frames.
            let level = structure.temporalID ?? (structure.isDroppable ? 1 : 0)
            for cut in min(level, InputAnalysis.allLevels)...InputAnalysis.allLevels { gaps[cut].keep(frame.pts) }
        } else {
            gaps[InputAnalysis.allLevels].keep(frame.pts)
        }
        // Without a container start time, times are taken from the first frame read; with
        // B-frames that is the first keyframe, also the earliest presented frame.
        if firstTime == nil, let t = frame.time { firstTime = t }
        guard let t = frame.time, let origin = presentationStart ?? firstTime else { return }
        let relative = t - origin
        if frame.structure?.temporalID == 0 || frame.structure?.temporalID == nil,
            firstBase == nil || relative < firstBase!
        {
            firstBase = relative
        }
        if frame.isKeyframe { keyframes.append(relative) }
        if frame.isKeyframe, let r = range {
            if relative <= r.start, keyBefore.map({ relative > $0 }) ?? true { keyBefore = relative }
            if let e = r.end, relative >= e, keyAfter.map({ relative < $0 }) ?? true { keyAfter = relative }
        }
    }
}
