import HFRMedia
import HFRProbe

/// Which source frames a lossless copy writes, and the output times they get. `VideoOutput` copies
/// what this keeps and the dry run (`ExportPreview`) counts it: one decision, so the plan printed
/// before an export is the file it writes.
struct CopySelection {
    let plan: ExportPlan
    let layers: LayerPlan
    /// The input video's time base and source time 0 (`InputAnalysis.origin`).
    let sourceTimeBase: Rational
    let origin: Rational
    /// The time base output timestamps are computed in (the muxer may use a finer one).
    let timeBase: Rational
    /// Output time of the plan's start: output time 0.
    let mapStart: Rational
    /// With one speed and the scaled source time base, output ticks are source ticks minus this
    /// (exact integers: the same result as the rational map, without its arithmetic per packet).
    let tickOffset: Int64?

    /// What happens to one source frame.
    enum Choice {
        /// Not written: outside the range (`isOutside`) or its level dropped in `segment`.
        case dropped(level: Int, segment: Int, isOutside: Bool)
        /// Written with these output times (`timeBase` ticks); `isHidden`: before the range start,
        /// decoded as a reference and hidden by an edit list.
        case kept(Kept)
        /// Not copied: a spliced export's re-encoded stretch shows it (`ExportPlan.reencodedSpans`).
        case reencoded(segment: Int)
    }

    struct Kept {
        let level: Int
        let segment: Int
        let isHidden: Bool
        let pts: Int64
        let dts: Int64?
        let duration: Int64
    }

    init(plan: ExportPlan, layers: LayerPlan, sourceTimeBase: Rational, origin: Rational) {
        self.plan = plan
        self.layers = layers
        self.sourceTimeBase = sourceTimeBase
        self.origin = origin
        timeBase = CopySelection.copyTimeBase(source: sourceTimeBase, plan: plan)
        mapStart = plan.map.outputTime(at: plan.start)
        var offset: Int64? = nil
        if plan.cadence == nil, plan.map.isConstant, timeBase == sourceTimeBase / plan.map.segments[0].speed {
            let ticks = origin / sourceTimeBase + mapStart / timeBase
            if ticks.isInteger { offset = ticks.numerator }
        }
        tickOffset = offset
    }

    /// With one speed, source ticks scaled by 1/speed: every timestamp maps to a whole tick, exactly.
    /// Times put back on a cadence need the output rate's own time base.
    static func copyTimeBase(source: Rational, plan: ExportPlan) -> Rational {
        if plan.map.isConstant, plan.cadence == nil {
            let scaled = source / plan.map.segments[0].speed
            if scaled.numerator == 1, scaled.denominator < Int64(Int32.max) { return scaled }
        }
        let rate = plan.outputRate
        let multiple = max(1, (90000 + rate.numerator - 1) / rate.numerator)
        return Rational(rate.denominator, rate.numerator * multiple)
    }

    /// The fate of the frame presented at `pts` (decoded at `dts`, lasting `duration` source ticks).
    func choose(pts: Int64, dts: Int64?, duration: Int64, structure: FrameStructure?) -> Choice {
        // A first frame shown early starts the video, one period before the second.
        let isLeading = pts == plan.leadingFrame
        let t = isLeading ? Rational(0) : time(pts)
        let level = structure.map { LayerPlan.level(of: $0, usesTemporalID: layers.usesTemporalID) } ?? 0
        let segment = plan.map.segmentIndex(at: t)
        let inRange = plan.decodeStart.map { t >= $0 } ?? true && t < plan.end
        guard inRange else { return .dropped(level: level, segment: segment, isOutside: true) }
        if plan.reencodedSpans.contains(where: { $0.covers(t) }) { return .reencoded(segment: segment) }
        guard layers.keeps(level: level, segment: segment) else {
            return .dropped(level: level, segment: segment, isOutside: false)
        }
        let speed = plan.map.segments[segment].speed
        let stride = LayerPlan.stride(capture: plan.streamRate, speed: speed, output: plan.outputRate)
        let times: (pts: Int64, dts: Int64?, duration: Int64)
        if let offset = tickOffset, stride.isInteger, duration > 0, !isLeading {
            times = (pts - offset, dts.map { $0 - offset }, duration * stride.numerator)
        } else {
            // A frame of unknown duration (Matroska without BlockDurations) lasts one period.
            var frameDuration =
                duration > 0 && !isLeading ? Rational.seconds(duration, in: sourceTimeBase) : plan.streamRate.reciprocal
            if let cadence = plan.cadence { frameDuration = cadence.snapDuration(frameDuration) }
            let sourceDuration = frameDuration * stride
            times = (ticks(t), dts.map { ticks(time($0)) }, ticks(t + sourceDuration) - ticks(t))
        }
        return .kept(
            Kept(
                level: level, segment: segment, isHidden: t < plan.start, pts: times.pts, dts: times.dts,
                duration: times.duration))
    }

    /// Gives `packet` the output times of `kept`, its decode time evened out by `decodeTimes`.
    static func retime(_ packet: Packet, as kept: Kept, _ decodeTimes: inout EvenDecodeTimes?) {
        packet.pts = kept.pts
        packet.dts = kept.dts
        packet.duration = kept.duration
        decodeTimes?.retime(packet)
    }

    /// Whether dropping layers at one speed, decode times are rewritten evenly (`EvenDecodeTimes`).
    static func evenDecodeTimes(_ plan: ExportPlan) -> EvenDecodeTimes? {
        let dropsLayers = plan.layers.map { l in l.maxLevels.contains { $0 < l.levelCount - 1 } } == true
        return dropsLayers && plan.map.isConstant ? EvenDecodeTimes() : nil
    }

    /// Seconds from the origin of source ticks `ticks`, on the plan's cadence if it has one.
    private func time(_ ticks: Int64) -> Rational {
        plan.time(ticks, in: sourceTimeBase, origin: origin)
    }

    /// Output ticks of source time `t`.
    private func ticks(_ t: Rational) -> Int64 {
        ((plan.map.outputTime(at: t) - mapStart) / timeBase).rounded()
    }
}
