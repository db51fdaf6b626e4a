import HFRInterpolation
import HFRMedia
import HFRProbe

extension ExportSettings {
    /// How `--fill-drops` makes the frames a capture dropped.
    public enum DropFill: String, Sendable, CaseIterable {
        /// Motion-compensated pictures between the frames around the gap (`--interpolate flow`'s).
        case flow
        /// The frame before the gap shown again.
        case `repeat`
    }
}

extension ExportPlan {
    /// Why an export with `--fill-drops` re-encodes: a copy keeps the frames it has.
    static let fillDropsReason = "--fill-drops: copying cannot insert the missing frames"

    /// The method that makes the filled frames: `flow` (or `blend` where the pictures are too small
    /// for optical flow, as `--interpolate flow` falls back), or `repeat`.
    static func dropFillMethod(_ fill: ExportSettings.DropFill, width: Int, height: Int) -> InterpolationMethod {
        switch fill {
        case .repeat: return .repeat
        case .flow: return (try? FlowInterpolator(width: width, height: height)) == nil ? .blend : .flow
        }
    }

    /// Seconds of stream time between two captured frames.
    var capturePeriod: Rational { streamRate.reciprocal }

    /// Source time `t` on the capture's grid: the whole number of frame periods from the first
    /// frame (time 0) nearest to it, as the gaps between frames are counted in whole periods.
    func onCaptureGrid(_ t: Rational) -> Rational {
        (t / capturePeriod).rounded().rational * capturePeriod
    }

    /// Whether `gap` (source seconds between two consecutive captured frames) holds dropped frames:
    /// at least one and a half frame periods (jitter of a camera's clock stays below).
    func isDrop(from earlier: Rational, to later: Rational) -> Bool {
        (later - earlier) * Rational(2) >= capturePeriod * Rational(3)
    }

    /// The output frames `--fill-drops` synthesizes in the gap between captured frames at `earlier`
    /// and `later` (source seconds): the slots farther than half a frame period from both, where
    /// no captured frame is (the others show the captured frame nearest to them, as always); and
    /// the frames the capture dropped there within the range (the gap's whole periods less one).
    func filledSlots(from earlier: Rational, to later: Rational, into slots: inout FrameRanges) -> Int {
        guard isDrop(from: earlier, to: later) else { return 0 }
        let half = capturePeriod / Rational(2)
        var slot = firstSlot(atOrAfter: earlier)
        while let t = reencodedSlotTime(slot), t < later {
            if t - earlier > half, later - t > half { slots.append(slot) }
            slot += 1
        }
        let periods = ((later - earlier) / capturePeriod).rounded()
        return (1..<max(1, periods)).count { k in
            let t = earlier + (later - earlier) * Rational(k, periods)
            return t >= start && t < end
        }
    }
}
