import HFRInterpolation
import HFRMedia
import HFRProbe

/// The export worked out against the input: rates, the (snapped) time map and range, and whether
/// video is copied losslessly (which frames) or re-encoded (why).
///
/// Options speak real time (the time model's source time); the outputs read the stream. So the map
/// and the range here are in **stream** time: for a stream that plays in real time the same thing,
/// for a 4× slow-motion stream (`streamScale` 1/4) boundaries 4× later and speeds 4× higher.
/// `realMap`, `realStart` and `realEnd` give them back in real time for reports and tags.
public struct ExportPlan: Sendable {
    /// Frames per real second (the capture rate).
    public let captureRate: Rational
    /// Real seconds per stream second (`InputAnalysis.streamScale`).
    public let streamScale: Rational
    public let outputRate: Rational
    /// Stream time → output time.
    public let map: TimeMap
    /// Stream seconds from the first video frame: where the output starts and ends.
    public let start: Rational
    /// Shortened to the last frame's end by `--fill-drops` (see `ExportPipeline.plan`).
    public internal(set) var end: Rational
    /// Copying: the earliest source time whose frames are written (a keyframe before `start`, shown
    /// before output time 0 and hidden by an edit list); nil = every frame before `end`.
    public let decodeStart: Rational?
    /// nil when the video is re-encoded.
    public let layers: LayerPlan?
    public let reencodeReason: String?
    /// Speed 1 throughout: audio packets are copied.
    public let copiesAudio: Bool
    /// What was adjusted and should be said (snapped cut points, moved boundaries).
    public internal(set) var notes: [String]
    /// How pictures are made where a re-encoded segment needs more frames than were captured.
    public internal(set) var interpolation: InterpolationMethod
    /// What is shown across a scene cut where pictures are made (`ExportSettings.cutFill`).
    public internal(set) var cutFill: ExportSettings.CutFill = .repeat
    /// A copy (`layers` set) whose segments `reencodedSegments` cannot be copied: the stretches
    /// re-encoded between the copied ones (see `MixedReencode`), and the encoder set up like the
    /// input's so both share one sample description. Empty and nil otherwise.
    public internal(set) var reencodedSpans: [ReencodedSpan] = []
    public internal(set) var reencodedSegments: Set<Int> = []
    var spliceEncoder: H264Encoder.Settings?
    /// A whole re-encode's encoder when it is not hfr's layered OpenH264 (`DeliveryEncoding`).
    public internal(set) var delivery: DeliveryEncoding?
    /// `--shutter` as a fraction of each output frame's time (180° = 1/2); nil without it.
    public internal(set) var shutter: Rational?
    /// `--codec openh264 --quality bitrate:B`: the layered encoder's bitrate (nil: its default).
    var layeredBitrate: Int64?
    /// Evenly spaced frames stamped in a time base that rounds them (Matroska's milliseconds): the
    /// grid their times are put back on before they are mapped.
    var cadence: Cadence?
    /// A first frame shown early (`InputAnalysis.leadingFrame`, source ticks): copied at time 0.
    var leadingFrame: Int64?
    /// `--fill-drops`: how the frames the capture dropped are made (`DropFill`), nil when its gaps
    /// are kept; the output frames made so (`CaptureGaps`, set before writing) and the frames the
    /// capture dropped within the range.
    public internal(set) var dropFill: InterpolationMethod?
    public internal(set) var filledDrops = FrameRanges()
    public internal(set) var droppedFrames = 0
    /// `--deflicker`: what was found and, with a model, taken out of every decoded picture.
    public internal(set) var deflicker: DeflickerFinding?

    /// Stream seconds of audio kept before `start`: audio that starts before the first video frame
    /// (a camera that starts its microphone first) keeps its lead, as an editor keeps a clip's
    /// offset (`AudioLead`). 0 when none (a range that starts later starts there).
    public internal(set) var audioLead = Rational(0)

    /// Every stream of the input, in input order, with what the export does with it
    /// (`TrackPlan.plans`); the pass writes what these say and nothing else.
    public internal(set) var tracks: [TrackPlan] = []
    /// The input's start timecode, moved to the export's start (`StartTimecode`).
    var timecode = StartTimecode(value: nil, note: nil)

    /// Stream seconds where the output's audio starts: the lead before `start`.
    var audioStart: Rational { start - audioLead }

    /// Output seconds the video starts after the audio (the lead through the map: before the first
    /// frame the first segment's speed continues); every video and other track's time is that much
    /// later than its place on the video's own timeline.
    public var videoDelay: Rational { map.outputTime(at: start) - map.outputTime(at: audioStart) }

    /// Output seconds the export's video lasts (from its first frame; `videoDelay` precedes it).
    public var outputDuration: Rational { map.outputTime(at: end) - map.outputTime(at: start) }

    /// Frames per second of stream time: the capture rate as the stream plays it.
    public var streamRate: Rational { captureRate * streamScale }

    /// The map, start and end in real (source) time.
    public var realMap: TimeMap { map.timeScaled(by: streamScale) }
    public var realStart: Rational { start * streamScale }
    public var realEnd: Rational { end * streamScale }

    /// Matches `settings` against `analysis`; throws when the options cannot apply to this input.
    /// Pure steps, each returning a value: the timeline, what the video does (`VideoChoice`), the
    /// range a copy cuts at, then what the pictures, the encoder and the audio need.
    public static func make(_ settings: ExportSettings, _ analysis: InputAnalysis) throws(ExportFailure) -> ExportPlan {
        if let conflict = neverConflict(settings) { throw .usage(conflict) }
        let timeline = try Timeline.make(settings, analysis)
        var notes = unevenNotes(settings, analysis)
        let choice = try VideoChoice.make(settings, analysis, timeline, notes: &notes)
        let copies = choice.isLossless || choice.splice != nil
        let cut =
            copies
            ? losslessRange(
                start: timeline.start, end: timeline.end, analysis, output: settings.output, notes: &notes)
            : (start: timeline.start, end: timeline.end, decodeStart: timeline.start)
        let usesTemporalID = analysis.layerSignalling?.hasTemporalIDs == true
        var plan = ExportPlan(
            captureRate: analysis.captureRate, streamScale: analysis.streamScale, outputRate: timeline.outputRate,
            map: choice.map, start: cut.start, end: cut.end, decodeStart: cut.decodeStart,
            layers: copies
                ? LayerPlan(maxLevels: choice.levels, levelCount: analysis.levelCount, usesTemporalID: usesTemporalID)
                : nil,
            reencodeReason: choice.reason(settings),
            copiesAudio: choice.map.segments.allSatisfy { $0.speed == Rational(1) },
            notes: notes, interpolation: settings.interpolation)
        plan.shutter = settings.shutter.map { $0 / Rational(360) }
        plan.leadingFrame = analysis.leadingFrame
        plan.cutFill = settings.cutFill
        if let finding = analysis.flicker {
            plan.deflicker = finding
            plan.notes.append(finding.note)
        }
        if let splice = choice.splice {
            plan.reencodedSpans = splice.spans
            plan.reencodedSegments = splice.segments
            plan.spliceEncoder = splice.encoder
            plan.notes.append(spliceNote(splice, plan: plan))
        }
        try plan.choosePictures(settings, analysis)
        try plan.chooseEncoder(settings, analysis)
        plan.chooseTiming(settings, analysis)
        try PlanBounds.check(
            plan, audio: settings.audio, hasAudio: analysis.audio != nil, hasRange: settings.range != nil)
        return plan
    }

    /// Why `settings` cannot be carried out with `--reencode never`, whatever the input: the one
    /// place these exclusions are decided (the command asks it before opening the input).
    public static func neverConflict(_ settings: ExportSettings) -> String? {
        guard settings.reencode == .never else { return nil }
        if settings.fillDrops != nil {
            return "--fill-drops makes the missing frames, which needs re-encoding: it excludes --reencode never"
        }
        if settings.shutter != nil {
            return "--shutter averages frames, which needs re-encoding: it excludes --reencode never"
        }
        if settings.deflicker != nil {
            return "--deflicker corrects the pictures, which needs re-encoding: it excludes --reencode never"
        }
        return nil
    }

    /// What the plan says of frame times that are not evenly spaced.
    static func unevenNotes(_ settings: ExportSettings, _ analysis: InputAnalysis) -> [String] {
        guard !analysis.isEvenlySpaced else { return [] }
        if settings.fillDrops != nil {
            return ["frame timestamps are uneven (dropped frames): the frames missing from the gaps are made"]
        }
        // A tagged capture rate is kept; a measured one is the frames' average.
        let rate =
            analysis.captureRateSource == .measured
            ? "their gaps are kept, at a capture rate of \(TimeMap.seconds(analysis.captureRate)) fps measured from them"
            : "their gaps are kept as they are"
        return ["frame timestamps are uneven (variable frame rate): \(rate)"]
    }

    /// How pictures are made: optical flow falls back to blending for pictures too small for it;
    /// `--fill-drops` chooses how the dropped frames are made.
    mutating func choosePictures(_ settings: ExportSettings, _ analysis: InputAnalysis) throws(ExportFailure) {
        let (width, height) = (analysis.video.width, analysis.video.height)
        if synthesis == .flow || synthesis == .blend, let failure = Interpolators.libraryFailure {
            throw .unavailable(failure.description)
        }
        if synthesis == .flow, (try? FlowInterpolator(width: width, height: height)) == nil {
            interpolation = .blend
            notes.append(
                "\(width)x\(height) pictures are too small for optical flow: the new frames are blended (as --interpolate blend)"
            )
        }
        guard let fill = settings.fillDrops else { return }
        dropFill = ExportPlan.dropFillMethod(fill, width: width, height: height)
        if dropFill != .repeat, let failure = Interpolators.libraryFailure {
            throw .unavailable(failure.description)
        }
        if fill == .flow, dropFill == .blend {
            notes.append("\(width)x\(height) pictures are too small for optical flow: the missing frames are blended")
        }
    }

    /// A re-encode's encoder (`DeliveryEncoding`, or hfr's layered OpenH264) and its quality, and
    /// whether the picture size suits it; a copy only says that `--quality` does not apply.
    mutating func chooseEncoder(_ settings: ExportSettings, _ analysis: InputAnalysis) throws(ExportFailure) {
        guard layers == nil else {
            if settings.delivery.quality != nil {
                notes.append(
                    "--quality applies to re-encoded video: "
                        + (isSpliced
                            ? "the re-encoded stretches match the copied stream's encoder instead"
                            : "this export copies it"))
            }
            return
        }
        let makesPictures = synthesis != nil || (dropFill.map { $0 != .repeat } ?? false)
        delivery = try DeliveryEncoding.choose(
            video: analysis.video, output: settings.output, makesPictures: makesPictures, request: settings.delivery)
        layeredBitrate = settings.delivery.quality.flatMap { q in
            if case .bitrate(let bits) = q { bits } else { nil }
        }
        // OpenH264's sizes, or the sides the delivery encoder's chroma subsampling needs.
        let (w, h) = (analysis.video.width, analysis.video.height)
        if let problem = delivery.map({ $0.sizeProblem(width: w, height: h) })
            ?? H264Limits.problem(width: w, height: h)
        {
            throw .badInput("needs re-encoding, but its \(w)x\(h) video \(problem)")
        }
        if let note = delivery?.note ?? DeliveryEncoding.layeredNote(video: analysis.video) {
            notes.append(note)
        }
    }

    /// The frame grid times are put back on, and the audio kept before the first frame.
    mutating func chooseTiming(_ settings: ExportSettings, _ analysis: InputAnalysis) {
        // Frames left out of a constant rate lie on its grid too: each gap stays whole periods.
        cadence = analysis.frameCadence
        // The range asked for: a Matroska copy's start snapped back to the first keyframe has none.
        if settings.audio != .mute, settings.splitPart != .video,
            let lead = AudioLead.kept(analysis, start: settings.range?.start ?? start)
        {
            audioLead = lead
            notes.append(AudioLead.note(self))
        }
    }

    /// The time map and output rate a mode asks for.
    static func timeMap(_ mode: ExportSettings.Mode, captureRate c: Rational) -> (TimeMap, Rational) {
        switch mode {
        case .conform(let fps): (TimeMap(speed: fps / c), fps)
        case .realTime(let fps): (TimeMap(speed: Rational(1)), fps)
        case .speed(let s, let fps): (TimeMap(speed: s), fps ?? c * s)
        case .ramp(let m, let fps): (m, fps ?? c * m.slowestSpeed)
        }
    }

    /// Layers switch only at base-layer frames: ramp boundaries move to the nearest one.
    static func snappedToBaseLayer(_ map: TimeMap, _ analysis: InputAnalysis, notes: inout [String]) -> TimeMap {
        let levelCount = analysis.levelCount
        guard analysis.layerSignalling?.hasTemporalIDs == true, levelCount > 1, map.segments.count > 1,
            let phase = analysis.firstBaseLayerTime
        else { return map }
        // Base-layer frames are 1 in (the largest lossless stride): 2^(layers − 1) for OpenH264.
        let k = analysis.streamScale
        let baseStride = analysis.losslessStrides.keys.max() ?? 1 << (levelCount - 1)
        let period = Rational(Int64(baseStride)) / (analysis.captureRate * k)
        let snapped = map.movingBoundaries { b in phase + ((b - phase) / period).rounded().rational * period }
        for (old, new) in zip(map.given.dropLast(), snapped.given.dropLast()) where old.end != new.end {
            notes.append(
                "ramp boundary \(TimeMap.seconds(old.end! * k)) s moved to \(TimeMap.seconds(new.end! * k)) s, a base-layer frame (layers switch only there)"
            )
        }
        return snapped
    }

    /// Per segment, the highest level kept losslessly, and why the segments that cannot be copied cannot.
    static func keptLevels(
        _ map: TimeMap, _ analysis: InputAnalysis, mode: ExportSettings.Mode, output o: Rational,
        range: (start: Rational, end: Rational)
    ) -> (levels: [Int], failures: [(segment: Int, reason: String)]) {
        let c = analysis.captureRate
        let k = analysis.streamScale
        let strides = analysis.losslessStrides
        let levelCount = analysis.levelCount
        var levels: [Int] = []
        var failures: [(segment: Int, reason: String)] = []
        for (i, segment) in map.segments.enumerated() {
            let stride = LayerPlan.stride(capture: c * k, speed: segment.speed, output: o)
            let isOutsideRange = (segment.end.map { $0 <= range.start } ?? false) || segment.start >= range.end
            if isOutsideRange {
                levels.append(levelCount - 1)
            } else if let ease = map.ease(containing: i) {
                // Its speed changes every step: no layer plan keeps such a cadence.
                levels.append(levelCount - 1)
                failures.append((i, easeReason(ease, map: map, k: k, output: o)))
            } else if analysis.untimedFrames > 0 {
                levels.append(levelCount - 1)
                failures.append(
                    (
                        i,
                        "\(analysis.untimedFrames) video frames have no presentation time (packed MPEG-4 B-frames): "
                            + "a copy cannot place them"
                    ))
            } else if stride.isInteger, let level = strides[Int(stride.numerator)] {
                levels.append(level)
            } else {
                levels.append(levelCount - 1)
                let why = reason(
                    segment: segment.timeScaled(by: k), mode: mode, stride: stride, c: c, o: o, strides: strides,
                    levelCount: levelCount, usesTemporalID: analysis.layerSignalling?.hasTemporalIDs == true)
                failures.append((i, why))
            }
        }
        return (levels, failures)
    }

    /// A copied range starts where decoding can (a keyframe, with an edit list hiding what precedes
    /// the cut in MP4/MOV) and, with B-frames, ends at a keyframe.
    static func losslessRange(
        start: Rational, end: Rational, _ analysis: InputAnalysis, output: String, notes: inout [String]
    ) -> (start: Rational, end: Rational, decodeStart: Rational?) {
        let k = analysis.streamScale
        var (start, end) = (start, end)
        var decodeStart: Rational? = nil
        if start > Rational(0) {
            let key = analysis.keyframeBeforeStart ?? Rational(0)
            let format = Container(output: output)
            if key != start, format.hasEditLists {
                // Decoding starts at the keyframe; the frames before the cut get negative times,
                // which the MP4/MOV edit list hides: an exact cut without re-encoding.
                notes.append(
                    "range start \(TimeMap.seconds(start * k)) s is not a keyframe: frames from the keyframe at \(TimeMap.seconds(key * k)) s are kept for decoding and hidden by an edit list"
                )
            } else if key != start {
                notes.append(
                    "range start \(TimeMap.seconds(start * k)) s moved to \(TimeMap.seconds(key * k)) s, the keyframe before it (cut without re-encoding; \(format) has no edit lists)"
                )
                start = key
            }
            decodeStart = key
        }
        if analysis.hasReordering, end < analysis.end {
            let key = analysis.keyframeAfterEnd ?? analysis.end
            if key != end {
                notes.append(
                    "range end \(TimeMap.seconds(end * k)) s moved to \(TimeMap.seconds(key * k)) s, the next keyframe (B-frames may reference frames after the cut)"
                )
                end = key
            }
        }
        return (start, end, decodeStart)
    }

    /// Why `segment` cannot be copied losslessly, with the nearest choice that can.
    static func reason(
        segment: TimeMap.Segment, mode: ExportSettings.Mode, stride: Rational, c: Rational, o: Rational,
        strides: [Int: Int], levelCount: Int, usesTemporalID: Bool
    ) -> String {
        let reachable = strides.keys.sorted().map(String.init).joined(separator: ", ")
        let what =
            levelCount == 1
            ? "the video has no droppable layers"
            : usesTemporalID
                ? "its \(levelCount) temporal layers allow keeping 1 frame in \(reachable)"
                : "dropping its non-reference frames allows keeping 1 frame in \(reachable)"
        let needs =
            "keeping 1 frame in \(TimeMap.seconds(stride)) of \(c.compactDescription) fps needs re-encoding; \(what)"
        if stride < Rational(1), let fewer = newFramesReason(segment: segment, mode: mode, stride: stride, c: c, o: o) {
            return fewer
        }
        let sorted = strides.keys.sorted()
        func nearest(_ candidates: [Rational], to target: Rational) -> Rational {
            candidates.min { abs(($0 - target).doubleValue) < abs(($1 - target).doubleValue) }!
        }
        switch mode {
        case .realTime(let fps):
            let rates = sorted.map { c / Rational(Int64($0)) }
            return
                "--fps \(fps.compactDescription): \(needs); nearest lossless: --fps \(nearest(rates, to: fps).compactDescription)"
        case .conform:
            return needs
        case .speed(let s, _):
            let speeds = sorted.map { Rational(Int64($0)) * o / c }
            return
                "--speed \(TimeMap.seconds(s)) at \(o.compactDescription) fps: \(needs); nearest lossless: --speed \(TimeMap.seconds(nearest(speeds, to: s)))"
        case .ramp:
            let speeds = sorted.map { Rational(Int64($0)) * o / c }
            return
                "ramp segment \(TimeMap.seconds(segment.start))-\(segment.end.map(TimeMap.seconds) ?? "")@\(TimeMap.seconds(segment.speed)) at \(o.compactDescription) fps: \(needs); nearest lossless speed: \(TimeMap.seconds(nearest(speeds, to: segment.speed)))"
        }
    }
}

extension ExportPlan {
    /// Source frames per output frame in segment `i` of the map (C·S/O).
    public func stride(ofSegment i: Int) -> Rational {
        LayerPlan.stride(capture: streamRate, speed: map.segments[i].speed, output: outputRate)
    }

    /// Whether segment `i` is re-encoded: the whole video is, or it is one a copy cannot reach.
    public func reencodes(segment i: Int) -> Bool {
        layers == nil || reencodedSegments.contains(i)
    }

    /// Levels a copy tells apart (1 when re-encoded).
    var levelCountKept: Int { layers?.levelCount ?? 1 }

    /// Whether some segments are copied and others re-encoded into the same output.
    public var isSpliced: Bool { layers != nil && !reencodedSpans.isEmpty }

    /// Whether segment `i` is re-encoded with frames made between the captured ones: each output
    /// frame advances the source by less than one captured frame (C·S/O < 1).
    public func needsNewFrames(segment i: Int) -> Bool {
        reencodes(segment: i) && stride(ofSegment: i) < Rational(1)
    }

    /// The note a spliced export prints: what is re-encoded, from where to where.
    static func spliceNote(_ splice: MixedReencode.Splice, plan: ExportPlan) -> String {
        let k = plan.streamScale
        let stretches = splice.spans.map { span in
            "\(TimeMap.seconds(span.from * k))-\(span.to.map { TimeMap.seconds($0 * k) } ?? "end") s"
        }
        return "only \(stretches.joined(separator: ", ")) of the source is re-encoded (copying resumes at a keyframe); "
            + "the rest is copied losslessly"
    }

    /// The method that synthesizes pictures in this export; nil when none is made (copied, `repeat`,
    /// or no segment within the range needs new frames). The output's `com.hfr.interpolated` tag.
    public var synthesis: InterpolationMethod? {
        guard interpolation != .repeat else { return nil }
        let needed = map.segments.indices.contains { i in
            let s = map.segments[i]
            return needsNewFrames(segment: i) && s.start < end && (s.end ?? end) > start
        }
        return needed ? interpolation : nil
    }

    /// Why a segment whose output frames advance the source by less than a captured frame cannot
    /// be copied: the frames between must be made. Names the slowest lossless speed at the output
    /// rate (O/C: every captured frame shown once); nil for modes that name another choice.
    static func newFramesReason(
        segment: TimeMap.Segment, mode: ExportSettings.Mode, stride: Rational, c: Rational, o: Rational
    ) -> String? {
        let needs =
            "each output frame advances the source by \(stride.compactDescription) of a \(c.compactDescription) fps "
            + "frame: frames between the captured ones must be made (--interpolate), which needs re-encoding"
        let slowest = TimeMap.seconds(o / c)
        switch mode {
        case .speed(let s, _):
            return
                "--speed \(TimeMap.seconds(s)) at \(o.compactDescription) fps: \(needs); slowest lossless speed at \(o.compactDescription) fps: --speed \(slowest)"
        case .ramp:
            return
                "ramp segment \(TimeMap.seconds(segment.start))-\(segment.end.map(TimeMap.seconds) ?? "")@\(TimeMap.seconds(segment.speed)) at \(o.compactDescription) fps: \(needs); slowest lossless speed at \(o.compactDescription) fps: \(slowest)"
        case .realTime, .conform:
            return nil
        }
    }
}

extension Int64 {
    var rational: Rational { Rational(self) }
}
