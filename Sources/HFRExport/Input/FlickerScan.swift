import HFRFlicker
import HFRMedia

/// `--deflicker`: decodes the video over the export's range (and a window's worth around it, for
/// the sliding fit at its ends) and measures every picture's brightness by band (`FlickerSeries`),
/// at its real time put back on the frame grid as the export's own times are; then finds the
/// flicker (`FlickerAnalysis`). Only the measurements are kept, a few numbers per picture.
enum FlickerScan {
    /// Real seconds kept either side of the range: more than a window of the fit.
    static let margin = 0.5

    static func scan(
        _ input: MediaInput, analysis: InputAnalysis, fileSize: Int64, range: (start: Rational, end: Rational?)?,
        request: ExportSettings.Deflicker, shouldStop: () -> Bool, progress: ((Double) -> Void)? = nil
    ) throws(ExportFailure) -> DeflickerFinding {
        var series = FlickerSeries(height: analysis.video.height)
        let first = (range?.start.doubleValue ?? 0) - margin
        let last = range?.end.map { $0.doubleValue + margin }
        do {
            try series.measure(input, stream: analysis.video, threads: 2) { pts in
                let time = realTime(pts, analysis)
                return time >= first && last.map { time <= $0 } ?? true ? time : nil
            } proceed: { packet in
                if shouldStop() { throw ExportFailure.interrupted }
                if let progress, let at = packet.position, fileSize > 0 { progress(Double(at) / Double(fileSize)) }
                // Past the range by more than the decoder's delay: nothing after it is measured.
                return !(last.map { l in packet.pts.map { realTime($0, analysis) > l + 1 } ?? false } ?? false)
            }
        } catch let failure as ExportFailure {
            throw failure
        } catch let failure as AVFailure {
            throw .reading(failure)
        } catch {
            throw .of("measuring flicker", error)
        }
        return DeflickerFinding(series: series, request: request)
    }

    /// Real seconds from the analysis' origin of a frame stamped `pts`, on the frame grid.
    static func realTime(_ pts: Int64, _ analysis: InputAnalysis) -> Double {
        let t = Rational.seconds(pts, in: analysis.video.timeBase) - analysis.origin
        return ((analysis.frameCadence?.snap(t) ?? t) * analysis.streamScale).doubleValue
    }
}
