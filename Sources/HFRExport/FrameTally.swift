import HFRMedia

/// The video frames of an export counted per segment of the plan's time map: filled by the export
/// as it writes (`VideoOutput`, `VideoReencoder`) and by the dry run as it reads, through the same
/// decisions (`CopySelection`, `ExportPlan.reencodedSlotTime`).
public struct FrameTally: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        /// Source frames presented in the segment, within the range.
        public var framesIn = 0
        /// Written frames per level (copies); a re-encode has level 0 only.
        public var kept: [Int: Int] = [:]
        /// Frames whose level the layer plan drops in this segment.
        public var dropped: [Int: Int] = [:]
        /// Written frames before the range start (decoded as references, hidden by an edit list).
        public var hidden = 0

        public var framesOut: Int { kept.values.reduce(0, +) }
    }

    public var segments: [Segment]
    /// Video packets read.
    public var framesIn = 0
    /// Frames outside the range (before where decoding starts, at or after the end), per level.
    public var outside: [Int: Int] = [:]
    /// Output seconds where the last written frame ends.
    public var end = Rational(0)

    init(segmentCount: Int) {
        segments = Array(repeating: Segment(), count: segmentCount)
    }

    public var framesOut: Int { segments.map(\.framesOut).reduce(0, +) }
    public var hidden: Int { segments.map(\.hidden).reduce(0, +) }

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
            if k.isHidden { segments[k.segment].hidden += 1 }
            end = max(end, Rational(k.pts + k.duration) * timeBase)
        }
    }

    /// Counts a source frame of a re-encode, presented at `t` source seconds (from the origin).
    mutating func countSource(at t: Rational, plan: ExportPlan) {
        guard t >= plan.start, t < plan.end else { return }
        segments[plan.map.segmentIndex(at: t)].framesIn += 1
    }

    /// Counts a re-encoded output frame for source time `t`, ending at output second `end`.
    mutating func countSlot(at t: Rational, endingAt end: Rational, plan: ExportPlan) {
        segments[plan.map.segmentIndex(at: t)].kept[0, default: 0] += 1
        self.end = max(self.end, end)
    }
}

extension ExportPlan {
    /// Source time of a re-encode's output frame `slot` (from the plan's start); nil past the end.
    /// `VideoReencoder` encodes one frame per slot; the dry run counts them.
    func reencodedSlotTime(_ slot: Int64) -> Rational? {
        let base = map.outputTime(at: start)
        let t = map.sourceTime(at: base + Rational(slot) / outputRate)
        return t < end ? t : nil
    }
}
