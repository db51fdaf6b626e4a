import HFRFlicker
import HFRMedia

/// `hfr probe`'s flicker reading: decodes the first pictures of the video (0.4 s of real time, at
/// least 32 and at most 128 pictures: one window of `FlickerAnalysis`, little decoding, on one
/// thread) and says whether
/// mains flicker shows in them, at what frequency and how deep.
public enum FlickerProbe {
    /// What was measured: the flicker found (nil: none), over how many pictures and real seconds.
    public struct Reading: Sendable {
        public let frequency: Double?
        public let depth: Double?
        public let inBands: Bool
        public let frames: Int
        public let seconds: Double
    }

    static let realSeconds = 0.4
    static let frameRange = 32...128

    /// `t` on the grid of `rate` frames per second when within a tick of it: a coarse time base
    /// (Matroska's milliseconds) rounds 120 fps to 0, 8, 17, 25 ms, a phase error a flicker fit
    /// cannot take (as the export puts its times back on the grid, `Cadence`).
    static func snapped(_ t: Double, rate: Double, tick: Double) -> Double {
        let onGrid = (t * rate).rounded() / rate
        return abs(onGrid - t) <= tick ? onGrid : t
    }

    /// The reading of `report`'s video; nil when there is none or it does not decode.
    public static func measure(_ input: MediaInput, report: ProbeReport) -> Reading? {
        guard let video = report.video, video.frameCount > 0 else { return nil }
        let info = report.streams[video.streamIndex].info
        let scale = video.streamScale.doubleValue
        let rate = (video.captureFrameRate ?? video.playbackFrameRate)?.doubleValue ?? 30
        let wanted = min(frameRange.upperBound, max(frameRange.lowerBound, Int((realSeconds * rate).rounded())))
        var series = FlickerSeries(height: info.height)
        let tick = info.timeBase.doubleValue
        do {
            try series.measure(input, stream: info, threads: 1, limit: wanted) { pts in
                snapped(Rational.seconds(pts, in: info.timeBase).doubleValue, rate: rate / scale, tick: tick) * scale
            }
        } catch {
            return nil
        }
        let sorted = series.times.sorted()
        guard sorted.count >= 16 else { return nil }
        let ordered = FlickerSeries(sortedFrom: series)
        let model = FlickerAnalysis.detect(ordered, frequencies: [100, 120])
        return Reading(
            frequency: model?.measuredFrequency, depth: model?.depth, inBands: model?.isBanded ?? false,
            frames: sorted.count, seconds: sorted.last! - sorted.first! + 1 / rate)
    }
}
