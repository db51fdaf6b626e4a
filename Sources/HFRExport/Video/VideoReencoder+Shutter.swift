import HFRInterpolation
import HFRMedia

/// An output frame of `--shutter` whose picture is being made: the decided slot, the source
/// seconds its shutter is open, and the weighted sum of the frames exposed meanwhile.
struct ShutterFrame {
    let decision: SlotSchedule.Decision
    let window: (start: Rational, end: Rational)
    let average: FrameAverage
}

extension VideoReencoder {
    /// `--shutter`: each output frame is the average of the captured frames exposed while its
    /// shutter is open (`ExportPlan.shutterWindow`), each weighted by how long, a captured frame
    /// being exposed from its time to the next one's. A frame's share goes to every open window it
    /// overlaps; a window is written once the frames after it arrive. Where the output needs new
    /// frames (C·S/O < 1) or fills a dropped one, the shutter is shorter than a captured frame:
    /// the slot is made as without it.
    func encodeShutterSlots(
        between earlier: Neighbour, and later: Neighbour?, _ write: (Packet) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        let exposure = (start: earlier.time, end: later?.time ?? earlier.time + plan.streamRate.reciprocal)
        let picture = try averageable(earlier.frame)
        for open in shutterFrames { open.average.add(picture, weight: Self.overlap(open.window, exposure)) }
        try writeClosedShutterFrames(until: exposure.end, write)
        while case let decisions = schedule.decide(earlier: earlier.time, later: later?.time), !decisions.isEmpty {
            for d in decisions {
                let t = d.time
                guard !d.isFilledDrop, !plan.needsNewFrames(segment: plan.map.segmentIndex(at: t)),
                    let window = plan.shutterWindow(d.slot)
                else {
                    try writeClosedShutterFrames(until: nil, write)
                    try encode([d], between: earlier, and: later, write)
                    continue
                }
                if window.start >= exposure.start, window.end <= exposure.end {
                    // Open within this frame's exposure only: the frame itself.
                    try writeClosedShutterFrames(until: nil, write)
                    try encode(earlier.frame, d, write)
                    continue
                }
                guard
                    let average = FrameAverage(
                        format: picture.pixelFormat!, width: picture.width, height: picture.height)
                else { throw .processing("shutter: \(picture.pixelFormat?.name ?? "?") pictures cannot be averaged") }
                average.add(picture, weight: Self.overlap(window, exposure))
                shutterFrames.append(ShutterFrame(decision: d, window: window, average: average))
                try writeClosedShutterFrames(until: exposure.end, write)
            }
        }
        if later == nil { try writeClosedShutterFrames(until: nil, write) }
    }

    /// Writes the open frames whose window ends by `time` (all when nil), in slot order.
    private func writeClosedShutterFrames(
        until time: Rational?, _ write: (Packet) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        while let first = shutterFrames.first, time.map({ first.window.end <= $0 }) ?? true {
            shutterFrames.removeFirst()
            let made = try ExportFailure.during("--shutter", as: .inputData) { try first.average.average() }
            guard let made else { continue }
            try encode(made, first.decision, write)
        }
    }

    /// The decoded picture in a format whose samples average one by one (else 8-bit 4:2:0).
    private func averageable(_ frame: Frame) throws(ExportFailure) -> Frame {
        guard let format = frame.pixelFormat, format.sampleLayout(width: frame.width, height: frame.height) == nil
        else { return frame }
        return try ExportFailure.during("video conversion", as: .inputData) { try converter.i420(frame) }
    }

    /// Seconds `a` and `b` share, as a weight.
    static func overlap(_ a: (start: Rational, end: Rational), _ b: (start: Rational, end: Rational)) -> Double {
        let start = max(a.start, b.start)
        let end = min(a.end, b.end)
        return end > start ? (end - start).doubleValue : 0
    }
}

extension ExportPlan {
    /// Source seconds (from the origin) output slot `slot`'s shutter is open: from its slot time,
    /// `shutter` of the way to the next slot's (nil without `--shutter`).
    func shutterWindow(_ slot: Int64) -> (start: Rational, end: Rational)? {
        guard let shutter else { return nil }
        let base = map.outputTime(at: start)
        let a = map.sourceTime(at: base + Rational(slot) / outputRate)
        let b = map.sourceTime(at: base + Rational(slot + 1) / outputRate)
        return (a, a + (b - a) * shutter)
    }
}
