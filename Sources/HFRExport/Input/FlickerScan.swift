import HFRFlicker
import HFRMedia

/// `--deflicker`: decodes the video over the export's range (and a window's worth around it, for
/// the sliding fit at its ends) and measures every picture's brightness by band (`FlickerSeries`),
/// at its real time put back on the frame grid as the export's own times are; then finds the
/// flicker (`FlickerAnalysis`). Only the measurements are kept, a few numbers per picture. The
/// decoder skips deblocking, which smooths edges, not brightness.
enum FlickerScan {
    /// Real seconds kept either side of the range: more than a window of the fit.
    static let margin = 0.5

    static func scan(
        _ input: MediaInput, analysis: InputAnalysis, fileSize: Int64, range: (start: Rational, end: Rational?)?,
        request: ExportSettings.Deflicker, shouldStop: () -> Bool, progress: ((Double) -> Void)? = nil
    ) throws(ExportFailure) -> DeflickerFinding {
        var series = FlickerSeries(height: analysis.video.height)
        let video = analysis.video
        let first = (range?.start.doubleValue ?? 0) - margin
        let last = range?.end.map { $0.doubleValue + margin }
        do {
            let demuxer = try Demuxer(input: input)
            demuxer.discardStreams(except: [video.index])
            let decoder = try Decoder(
                parameters: demuxer.codecParameters(ofStream: video.index), timeBase: video.timeBase, threads: 2,
                skipsLoopFilter: true)
            var converter = try PictureConverter(width: video.width, height: video.height)
            let packet = try Packet()
            var levels: (PixelFormat, SampleLevels?)?
            func measure(_ frame: Frame) throws {
                guard let pts = frame.bestEffortTimestamp, let format = frame.pixelFormat else { return }
                let time = FlickerScan.realTime(pts, analysis)
                guard time >= first, last.map({ time <= $0 }) ?? true else { return }
                if levels?.0 != format {
                    levels = (format, SampleLevels(format: format, width: frame.width, height: frame.height))
                }
                if let sampled = levels?.1 {
                    series.add(frame, levels: sampled, time: time)
                } else {
                    let picture = try converter.i420(frame)
                    if let i420 = SampleLevels.of(picture) { series.add(picture, levels: i420, time: time) }
                }
            }
            var more = true
            while more {
                if shouldStop() { throw ExportFailure.interrupted }
                more = try demuxer.read(into: packet)
                if more, packet.streamIndex != video.index { continue }
                if let progress, let at = packet.position, fileSize > 0 { progress(Double(at) / Double(fileSize)) }
                if more, let last, let pts = packet.pts, realTime(pts, analysis) > last + 1 { more = false }
                _ = try decoder.send(more ? packet : nil)
                let frame = try Frame()
                while case .value = try decoder.receive(into: frame) {
                    try measure(frame)
                    frame.unref()
                }
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
