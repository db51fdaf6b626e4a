import HFRMedia

/// The video frames of an export counted per segment of the plan's time map: filled as the frames
/// are written (`VideoOutput`, `VideoReencoder`) or, in the dry run, counted (`SlotCounter`), through
/// the same decisions (`CopySelection`, `SlotSchedule`).
public struct FrameTally: Sendable {
    public struct Segment: Sendable, Equatable {
        /// Source frames presented in the segment, within the range.
        public var framesIn = 0
        /// Written frames per level (copies); a re-encode has level 0 only.
        public var kept: [Int: Int] = [:]
        /// Frames whose level the layer plan drops in this segment.
        public var dropped: [Int: Int] = [:]
        /// Written frames before the range start (decoded as references, hidden by an edit list).
        public var hidden = 0
        /// Of the written frames, new pictures made between captured ones (a re-encode's `flow`, `blend`).
        public var interpolated = 0

        /// Output seconds from the first shown frame written for it to where its last one ends.
        public var outputStart: Rational?
        public var outputEnd: Rational?

        public var framesOut: Int { kept.values.reduce(0, +) }

        /// Adds the counts of `other` (a neighbouring segment shown in the same row).
        mutating func add(_ other: Segment) {
            framesIn += other.framesIn
            kept.merge(other.kept, uniquingKeysWith: +)
            dropped.merge(other.dropped, uniquingKeysWith: +)
            hidden += other.hidden
            interpolated += other.interpolated
            if let from = other.outputStart, let to = other.outputEnd { noteOutput(from: from, to: to) }
        }

        mutating func noteOutput(from start: Rational, to end: Rational) {
            outputStart = min(outputStart ?? start, start)
            outputEnd = max(outputEnd ?? end, end)
        }
    }

    public var segments: [Segment]
    /// Video packets read.
    public var framesIn = 0
    /// Frames outside the range (before where decoding starts, at or after the end), per level.
    public var outside: [Int: Int] = [:]
    /// Output seconds where the last written frame ends.
    public var end = Rational(0)
    /// Output seconds of the earliest start of a shown frame, and the span of the last one shown.
    public var firstStart: Rational?
    public var lastShown: (start: Rational, end: Rational)?
    /// Copies: the first written packet's decode time and where the last one's ends (output ticks,
    /// after `EvenDecodeTimes`), in the time base of `timeBase`.
    private var decodeSpan: (first: Int64, end: Int64)?
    private var timeBase = Rational(1)
    private var muxerTimes: MuxerDecodeTimes

    /// `reorderDelay`: the video's reorder delay in frames (`Demuxer.reorderDelay`).
    init(segmentCount: Int, reorderDelay: Int = 0) {
        segments = Array(repeating: Segment(), count: segmentCount)
        muxerTimes = MuxerDecodeTimes(delay: reorderDelay)
    }

    public var framesOut: Int { segments.map(\.framesOut).reduce(0, +) }
    public var hidden: Int { segments.map(\.hidden).reduce(0, +) }
    public var interpolated: Int { segments.map(\.interpolated).reduce(0, +) }
    /// Of the written frames, those made where the capture dropped frames (`--fill-drops`).
    public var filledDrops = 0

    /// Frames not written per level: dropped layers and frames outside the range.
    public var droppedByLevel: [Int: Int] {
        segments.map(\.dropped).reduce(outside) { $0.merging($1, uniquingKeysWith: +) }
    }

    /// Counts a copy's decision about one frame (`timeBase`: the output ticks' time base).
    mutating func count(_ choice: CopySelection.Choice, timeBase: Rational) {
        switch choice {
        case .dropped(let level, let segment, let isOutside):
            if isOutside {
                outside[level, default: 0] += 1
            } else {
                segments[segment].framesIn += 1
                segments[segment].dropped[level, default: 0] += 1
            }
        case .kept(let k):
            if !k.isHidden { segments[k.segment].framesIn += 1 }
            segments[k.segment].kept[k.level, default: 0] += 1
            let frameEnd = Rational(k.pts + k.duration) * timeBase
            if k.isHidden {
                segments[k.segment].hidden += 1
            } else {
                segments[k.segment].noteOutput(from: Rational(k.pts) * timeBase, to: frameEnd)
                noteShown(from: Rational(k.pts) * timeBase, to: frameEnd)
            }
            end = max(end, frameEnd)
        case .reencoded(let segment):
            countReencodedSource(segment: segment)
        }
    }

    /// Notes a copied packet as written (its output times final): where decoding starts and ends.
    mutating func noteWritten(_ packet: Packet, timeBase: Rational) {
        guard let dts = muxerTimes.dts(pts: packet.pts, dts: packet.dts, duration: packet.duration) else { return }
        decodeSpan = (decodeSpan?.first ?? dts, dts + packet.duration)
        self.timeBase = timeBase
    }

    /// The video's length as the written file states it. MP4/MOV (`isISO`) give the shorter of the
    /// track's decode span (its sample durations add up to it: with B-frames not quite the shown
    /// span) and the edit list's shown span; others the shown span, from the start to the end of
    /// the last frame.
    public func duration(isISO: Bool) -> Rational {
        guard isISO, let decodeSpan else { return end }
        return min(end, Rational(decodeSpan.end - decodeSpan.first) * timeBase)
    }

    /// Counts a source frame of a re-encode, presented at `t` source seconds (from the origin).
    mutating func countSource(at t: Rational, plan: ExportPlan) {
        guard t >= plan.start, t < plan.end else { return }
        segments[plan.map.segmentIndex(at: t)].framesIn += 1
    }

    /// Counts the output frame a re-encoder writes for `decision`, `frameTicks` of `timeBase` long
    /// from its slot: `VideoReencoder` as it encodes it, the dry run's `SlotCounter` as it decides it.
    mutating func countSlot(_ decision: SlotSchedule.Decision, frameTicks: Int64, timeBase: Rational, plan: ExportPlan)
    {
        let pts = decision.slot * frameTicks
        let span = (Rational(pts) * timeBase, Rational(pts + frameTicks) * timeBase)
        countSlot(at: decision.time, span: span, plan: plan, isNew: decision.showsNewPicture(plan))
        if decision.isFilledDrop { filledDrops += 1 }
    }

    /// Counts a re-encoded output frame for source time `t`, shown over output seconds `span`;
    /// `isNew`: a picture made between captured frames.
    private mutating func countSlot(
        at t: Rational, span: (start: Rational, end: Rational), plan: ExportPlan, isNew: Bool
    ) {
        let segment = plan.map.segmentIndex(at: t)
        segments[segment].kept[0, default: 0] += 1
        if isNew { segments[segment].interpolated += 1 }
        segments[segment].noteOutput(from: span.start, to: span.end)
        noteShown(from: span.start, to: span.end)
        end = max(end, span.end)
    }

    private mutating func noteShown(from start: Rational, to end: Rational) {
        firstStart = min(firstStart ?? start, start)
        if lastShown.map({ start > $0.start }) ?? true { lastShown = (start, end) }
    }

    /// Adds the output frames a re-encoder counted (`countSlot`) to those copied, keeping the
    /// source counts.
    mutating func takeSlots(of reencoded: FrameTally) {
        for i in segments.indices {
            let r = reencoded.segments[i]
            segments[i].kept.merge(r.kept, uniquingKeysWith: +)
            segments[i].interpolated += r.interpolated
            if let from = r.outputStart, let to = r.outputEnd { segments[i].noteOutput(from: from, to: to) }
        }
        end = max(end, reencoded.end)
        filledDrops += reencoded.filledDrops
        if let first = reencoded.firstStart { firstStart = min(firstStart ?? first, first) }
        if let last = reencoded.lastShown { noteShown(from: last.start, to: last.end) }
    }

    /// Counts a source frame a spliced export re-encodes (shown by re-encoded slots, not copied).
    mutating func countReencodedSource(segment: Int) {
        segments[segment].framesIn += 1
    }
}

extension ExportPlan {
    /// Source time of a re-encode's output frame `slot` (from the plan's start); nil past the end.
    /// `VideoReencoder` encodes one frame per slot; the dry run's `SlotCounter` counts them.
    func reencodedSlotTime(_ slot: Int64) -> Rational? {
        let base = map.outputTime(at: start)
        let t = map.sourceTime(at: base + Rational(slot) / outputRate)
        return t < end ? t : nil
    }

    /// The first re-encoded slot whose source time is at or after `t`: its output time is the first
    /// whole frame at or after `t`'s.
    func firstSlot(atOrAfter t: Rational) -> Int64 {
        let frames = (map.outputTime(at: t) - map.outputTime(at: start)) * outputRate
        guard frames > Rational(0) else { return 0 }
        let whole = frames.numerator / frames.denominator
        return Rational(whole) == frames ? whole : whole + 1
    }
}
