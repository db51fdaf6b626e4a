import HFRInterpolation
import HFRMedia

/// Which picture each output frame of a re-encode shows, decided from the times of the captured
/// frames around its slot: `VideoReencoder` feeds it decoded frames, the dry run's `SlotCounter`
/// packet times, so both make the same decisions and count the same new pictures.
///
/// A slot's source time is `ExportPlan.reencodedSlotTime`. In a segment where each output frame
/// advances the source by at least one captured frame (C·S/O ≥ 1) the slot shows the captured frame
/// nearest to it. Where it advances by less, a slot between two captured frames gets a new picture
/// made `fraction` of the way from the earlier to the later one (`flow`, `blend`), or shows the
/// earlier one again (`repeat`). A slot within half a source tick of a captured frame shows it.
/// With `--fill-drops`, a slot in a gap where the capture dropped frames (`ExportPlan.filledDrops`:
/// farther than half a frame period from both frames around it) gets a picture made between them
/// (`flow`) or the earlier one again (`repeat`), whatever the segment's stride.
struct SlotSchedule {
    enum Pick: Equatable {
        case earlier
        case later
        /// A new picture this far from the earlier frame to the later one (strictly between 0 and 1).
        case between(Double)
    }

    struct Decision: Equatable {
        let slot: Int64
        /// Source seconds (from the origin) the slot shows.
        let time: Rational
        let pick: Pick
        /// The slot fills a gap where the capture dropped frames (`--fill-drops`).
        var isFilledDrop = false

        /// Whether the slot shows a new picture made between captured frames (what `plan` makes
        /// there: none with `repeat`, which shows the earlier one again). A filled drop is counted
        /// apart (`FrameTally.filledDrops`).
        func showsNewPicture(_ plan: ExportPlan) -> Bool {
            guard case .between = pick, !isFilledDrop else { return false }
            return plan.synthesis != nil
        }

        /// How far a `.between` slot is from the earlier frame to the later one (0 for the others).
        var fraction: Double {
            if case .between(let f) = pick { return f }
            return 0
        }
    }

    let plan: ExportPlan
    /// Half a tick of the source time base: a slot this close to a captured frame shows that frame.
    let tolerance: Rational
    /// The next slot to decide.
    private(set) var slot: Int64 = 0
    /// Where the slots stop (a spliced export's span: copying resumes there); nil at the plan's end.
    let until: Rational?

    /// The slots of the whole plan, or with `span` those of that re-encoded stretch of a splice.
    init(plan: ExportPlan, sourceTimeBase: Rational, span: ReencodedSpan? = nil) {
        self.plan = plan
        tolerance = sourceTimeBase / Rational(2)
        until = span?.to
        if let span { slot = plan.firstSlot(atOrAfter: span.from) }
    }

    /// Slots decided at a time: a long gap between captured frames (millions of slots) is worked
    /// through in batches, each written before the next is decided, so a stop request is seen.
    static let batch = 512

    /// Decides the next slots (at most `limit`) before the captured frame at `later` (source
    /// seconds), the frame before it being at `earlier`; with `later` nil (the end of the input),
    /// the slots left. Empty once every slot before `later` is decided.
    mutating func decide(earlier: Rational, later: Rational?, limit: Int = SlotSchedule.batch) -> [Decision] {
        var decisions: [Decision] = []
        while decisions.count < limit, let t = plan.reencodedSlotTime(slot), until.map({ t < $0 }) ?? true,
            later.map({ t < $0 }) ?? true
        {
            if plan.filledDrops.contains(slot) {
                decisions.append(
                    Decision(slot: slot, time: t, pick: fillPick(t, earlier: earlier, later: later), isFilledDrop: true)
                )
            } else {
                decisions.append(Decision(slot: slot, time: t, pick: pick(t, earlier: earlier, later: later)))
            }
            slot += 1
        }
        return decisions
    }

    /// What slot time `t` shows, between captured frames at `a` and `b`. A slot within half a
    /// source tick of a frame shows it, the tick being at most an eighth of the gap: a time base
    /// as coarse as the frame rate itself (240 fps in 1/240 s) would otherwise take every slot
    /// for a captured frame and make none.
    func pick(_ t: Rational, earlier a: Rational, later b: Rational?) -> Pick {
        guard let b, b > a else { return .earlier }
        let tolerance = min(self.tolerance, (b - a) / Rational(8))
        guard t > a + tolerance else { return .earlier }
        if b - t <= tolerance { return .later }
        guard plan.needsNewFrames(segment: plan.map.segmentIndex(at: t)) else {
            return t < (a + b) / Rational(2) ? .earlier : .later
        }
        if plan.interpolation == .repeat { return .earlier }
        return .between(((t - a) / (b - a)).doubleValue)
    }

    /// What a slot in a gap of dropped frames shows: a picture made `fraction` of the way from `a`
    /// to `b` (`flow`, `blend`), or the earlier frame again (`repeat`).
    func fillPick(_ t: Rational, earlier a: Rational, later b: Rational?) -> Pick {
        guard let b, b > a, t > a, t < b, plan.dropFill != .repeat else { return .earlier }
        return .between(((t - a) / (b - a)).doubleValue)
    }

    /// Hands `body` the decision for every slot, for captured frames at `times` (source seconds, any
    /// order): what the dry run counts (`SlotCounter`), as the re-encoder decides them from the
    /// decoded frames.
    static func forEachDecision(
        plan: ExportPlan, sourceTimeBase: Rational, times: [Rational], span: ReencodedSpan? = nil,
        _ body: (Decision) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        var schedule = SlotSchedule(plan: plan, sourceTimeBase: sourceTimeBase, span: span)
        let sorted = times.sorted()
        guard var earlier = sorted.first else { return }
        for later in sorted.dropFirst().map(Optional.some) + [nil] {
            while case let decisions = schedule.decide(earlier: earlier, later: later), !decisions.isEmpty {
                for d in decisions { try body(d) }
            }
            if let later { earlier = later }
        }
    }
}
