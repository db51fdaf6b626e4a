import HFRMedia
import HFRProbe

/// An export's plan as people and scripts read it: per segment of the time map, the source span,
/// speed, the frames kept and dropped per layer, copied or re-encoded, the output frames; the
/// stretches a splice re-encodes; the totals; every track and what happens to it. Made by the
/// export's own pass (`ExportPipeline.pass`): `export --dry-run` prints it from a pass into a sink
/// that only counts, the export's report carries the one it wrote.
public struct ExportPreview: Sendable {
    public struct Segment: Sendable {
        /// Real (source) seconds of the input this segment covers, within the range.
        public let sourceStart: Rational
        public let sourceEnd: Rational
        /// Playback speed (real time); of an eased change of speed (its steps in one row), the
        /// speed it eases to.
        public let speed: Rational
        /// An eased change of speed: the speed it eases from (nil: `speed` throughout).
        public internal(set) var easeFrom: Rational? = nil
        /// Source frames per output frame (C·S/O).
        public let stride: Rational
        /// Copied: the highest level kept (nil: re-encoded).
        public let maxLevel: Int?
        /// Whether every frame of the segment is written (no layer dropped), copied or not.
        public let keepsEveryFrame: Bool
        /// Re-encoded with fewer than one captured frame per output frame (C·S/O < 1): how the frames
        /// between are made (`flow`, `blend`, `repeat`); nil otherwise. `frames.interpolated` counts them.
        public let interpolation: String?
        public let frames: FrameTally.Segment
        /// Output seconds the segment's written frames span (from the first's start to the last's
        /// end; the map's span when it has none), from the output's start.
        public let outputStart: Rational
        public let outputEnd: Rational
    }

    /// A stretch of a spliced export that is re-encoded between copied ones (`ReencodedSpan`).
    public struct Span: Sendable {
        /// Real (source) seconds whose output frames it makes, to where copying resumes (nil: the end).
        public let sourceStart: Rational
        public let sourceEnd: Rational?
        /// Real seconds of the keyframe its decoding starts from.
        public let decodeFrom: Rational
        /// The frames it writes, of them the new pictures, and the output seconds they span.
        public let frames: FrameTally

        public var framesOut: Int { frames.framesOut }
    }

    public let input: String
    public let output: String
    /// The output container.
    public let container: Container
    public let captureRate: Rational
    public let captureRateSource: String
    public let outputRate: Rational
    /// The time map in real time, after snapping.
    public let map: TimeMap
    public let start: Rational
    public let end: Rational
    /// Levels the analysis told apart (nil: not analysed, every frame kept) and how they are signalled.
    public let levelCount: Int?
    public let layerSignalling: String?
    /// nil when copied losslessly.
    public let reencodeReason: String?
    /// Copied, with the segments a copy cannot reach re-encoded into the same stream (their
    /// `maxLevel` nil); `splicedReason` says why those are.
    public let isSpliced: Bool
    public let splicedReason: String?
    public let segments: [Segment]
    /// A splice's re-encoded stretches (empty otherwise).
    public let reencodedSpans: [Span]
    public let framesIn: Int
    public let framesOut: Int
    /// Written frames before the range start, hidden by an edit list.
    public let hiddenFrames: Int
    /// Written frames that are new pictures made between captured ones.
    public let interpolatedFrames: Int
    /// The method that makes them (`flow`, `blend`); nil when none are made.
    public let interpolation: String?
    /// Written frames made where the capture dropped frames (`--fill-drops`), and how (`flow`,
    /// `blend`, `repeat`); the method nil without `--fill-drops`.
    public let filledDrops: Int
    public let dropFill: String?
    /// What is shown across a scene cut instead (`repeat`, `crossfade`); nil when none are made.
    public let cutFill: String?
    /// The encoder of re-encoded video and its quality (as `ExportReport.encoder`, `quality`);
    /// nil when copied.
    public let encoder: String?
    public let quality: String?
    /// `--shutter` in degrees; nil without it.
    public let shutter: Rational?
    /// `--deflicker`: the flicker found and whether it is taken out; nil without it.
    public let deflicker: DeflickerFinding.Summary?
    /// Video seconds of the output: where its last frame ends.
    public let outputDuration: Rational
    /// "spectral", "time-domain", "varispeed", "copy" or "none" (muted, or no audio in the input).
    public let audioAlgorithm: String
    /// Audio tracks written; the first retimed track's rate and samples (nil when copied or none),
    /// and its length (when copied: the video's), as `ExportReport` has them.
    public let audioTracks: Int
    public let audioSampleRate: Int?
    public let audioSamples: Int64?
    public let audioDuration: Rational?
    /// Every stream of the input in input order, with what the plan does with it (`TrackPlan`)
    /// and what its output track holds.
    public let tracks: [ExportTrack]
    public let notes: [String]

    public var isReencoded: Bool { reencodeReason != nil }

    /// The plan of the pass whose outputs are `video` and `audio` and whose tracks are `tracks`.
    init(
        settings: ExportSettings, analysis: InputAnalysis, plan: ExportPlan, video: VideoOutput, audio: [AudioOutput],
        tracks: [ExportTrack], notes: [String]
    ) {
        let tally = video.tally
        let container = Container(output: settings.output)
        input = settings.input
        output = settings.output
        self.container = container
        captureRate = analysis.captureRate
        captureRateSource = analysis.captureRateSource.rawValue
        outputRate = plan.outputRate
        map = plan.realMap
        start = plan.realStart
        end = plan.realEnd
        levelCount = analysis.layerSignalling == nil ? nil : analysis.levelCount
        layerSignalling = analysis.layerSignalling?.rawValue
        reencodeReason = plan.layers == nil ? (plan.reencodeReason ?? "re-encoded") : nil
        isSpliced = plan.isSpliced
        splicedReason = plan.isSpliced ? plan.reencodeReason : nil
        segments = ExportPreview.segments(plan: plan, tally: tally)
        let k = plan.streamScale
        reencodedSpans = zip(plan.reencodedSpans, video.spanSlots).map { span, frames in
            Span(
                sourceStart: span.from * k, sourceEnd: span.to.map { $0 * k }, decodeFrom: span.decodeFrom * k,
                frames: frames)
        }
        framesIn = tally.framesIn
        framesOut = tally.framesOut
        hiddenFrames = tally.hidden
        interpolatedFrames = tally.interpolated
        interpolation = plan.synthesis?.rawValue
        filledDrops = tally.filledDrops
        dropFill = plan.dropFill?.rawValue
        cutFill = plan.synthesis == nil ? nil : plan.cutFill.rawValue
        (encoder, quality) = plan.encoderAndQuality
        shutter = plan.shutter.map { $0 * Rational(360) }
        deflicker = plan.deflicker?.summary
        outputDuration = tally.duration(isISO: container.hasEditLists)
        audioAlgorithm = ExportPreview.audioAlgorithm(settings, plan)
        audioTracks = audio.count
        let retimed = audio.first?.retimedSamples
        audioSampleRate = retimed?.sampleRate
        audioSamples = retimed?.samples
        audioDuration =
            retimed.flatMap(ExportTrack.seconds)
            ?? (audioAlgorithm == "copy" ? outputDuration + plan.videoDelay : nil)
        self.tracks = tracks
        self.notes = notes
    }

    /// What happens to the audio, as the plan says of its first audio track: the rule the report
    /// and the plan share.
    static func audioAlgorithm(_ settings: ExportSettings, _ plan: ExportPlan) -> String {
        guard let audio = plan.tracks.first(where: { $0.writer == .audio }) else { return "none" }
        // A codec the container does not store is converted: through the retimer, at speed 1.
        return audio.encoder == nil ? "copy" : settings.audio.rawValue
    }

    /// The map's segments that overlap the range (or hold written frames), clipped to it.
    static func segments(plan: ExportPlan, tally: FrameTally) -> [Segment] {
        let k = plan.streamScale
        let base = plan.map.outputTime(at: plan.start)
        let rows = plan.map.segments.enumerated().compactMap { i, s -> (Int, Segment)? in
            let from = max(s.start, plan.start)
            let to = min(s.end ?? plan.end, plan.end)
            let frames = tally.segments[i]
            guard from < to || frames.framesOut > 0 else { return nil }
            let maxLevel = plan.reencodes(segment: i) ? nil : plan.layers?.maxLevels[i]
            let keepsAll = maxLevel.map { $0 >= plan.levelCountKept - 1 } ?? false
            let row = Segment(
                sourceStart: from * k, sourceEnd: max(from, to) * k, speed: s.speed * k,
                stride: LayerPlan.stride(capture: plan.streamRate, speed: s.speed, output: plan.outputRate),
                maxLevel: maxLevel, keepsEveryFrame: keepsAll && frames.dropped.isEmpty,
                interpolation: plan.needsNewFrames(segment: i) ? plan.interpolation.rawValue : nil, frames: frames,
                outputStart: frames.outputStart ?? plan.map.outputTime(at: from) - base,
                outputEnd: frames.outputEnd ?? plan.map.outputTime(at: max(from, to)) - base)
            return (i, row)
        }
        return joiningEases(rows, map: plan.map, k: k)
    }

    /// `rows` (with their segment indices) with the steps of each ease joined into one row: the
    /// hundreds of steps of a smooth change of speed read as one.
    static func joiningEases(_ rows: [(Int, Segment)], map: TimeMap, k: Rational) -> [Segment] {
        var joined: [Segment] = []
        var lastEase: Int? = nil
        for (i, row) in rows {
            let ease = map.eases.firstIndex { $0.steps.contains(i) }
            defer { lastEase = ease }
            guard let ease else {
                joined.append(row)
                continue
            }
            let speeds = map.eases[ease]
            guard ease == lastEase, let first = joined.popLast() else {
                var row = row
                row.easeFrom = speeds.from * k
                joined.append(row)
                continue
            }
            var frames = first.frames
            frames.add(row.frames)
            var merged = Segment(
                sourceStart: first.sourceStart, sourceEnd: row.sourceEnd, speed: speeds.to * k, stride: row.stride,
                maxLevel: first.maxLevel ?? row.maxLevel, keepsEveryFrame: first.keepsEveryFrame && row.keepsEveryFrame,
                interpolation: first.interpolation ?? row.interpolation, frames: frames,
                outputStart: min(first.outputStart, row.outputStart), outputEnd: max(first.outputEnd, row.outputEnd))
            merged.easeFrom = speeds.from * k
            joined.append(merged)
        }
        return joined
    }
}
