import Foundation
import HFRExport
import HFRMedia

/// Progress of an export on stderr, as ffmpeg's stats line:
/// `frame=  1234 fps= 850 speed=7.1x time=0:04.2/0:16.0 ETA 0:02`, led by `re-encoding` when the
/// plan decodes and re-encodes the video. Rates are per second of wall time since writing began
/// (the analysis before it is not counted); speed is output seconds written per wall second, as
/// ffmpeg's; the ETA is the output still to write at that speed.
final class ExportProgress {
    private let line: ProgressLine
    private var writingStarted: Date?
    private var measuredPercent: Int?

    init(style: ProgressLine.Style = ProgressLine.style) {
        line = ProgressLine(style: style, prefix: "export: ")
    }

    /// Before the plan is known: says what is happening on a terminal (the analysis can take a while).
    func analysing() {
        if line.style == .terminal { line.update("analysing the input…") }
    }

    /// `--deflicker` measuring the input before the plan: the share of it read (a line when the
    /// whole percent changes).
    func measuring(_ fraction: Double) {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard percent != measuredPercent else { return }
        measuredPercent = percent
        line.update("measuring flicker: \(percent) % of the input read")
    }

    func show(_ tick: ExportTick) {
        let now = Date()
        let started = writingStarted ?? now
        // In a log the first line comes `ProgressLine.interval` after writing began (an export that
        // fails before then prints its error line alone); each line says whether it re-encodes.
        if writingStarted == nil { writingStarted = now }
        line.update(Self.text(tick, elapsed: now.timeIntervalSince(started)))
    }

    /// The stats line for `tick`, `elapsed` wall seconds after writing began.
    static func text(_ tick: ExportTick, elapsed: Double) -> String {
        let fps = elapsed > 0 ? Double(tick.framesWritten) / elapsed : 0
        let speed = elapsed > 0 ? tick.outputSeconds / elapsed : 0
        var text = tick.isReencoding ? "re-encoding: " : ""
        text += "frame=\(ProgressLine.pad(String(tick.framesWritten), 6)) "
        text += "fps=\(ProgressLine.pad(String(Int(fps.rounded())), 4)) "
        text += "speed=\(DecimalText.fixed(speed, digits: speed < 10 ? 2 : 1))x "
        text += "time=\(ProgressLine.clockTenths(tick.outputSeconds))/\(ProgressLine.clockTenths(tick.plannedSeconds))"
        if speed > 0 {
            text += " ETA \(ProgressLine.clock((tick.plannedSeconds - tick.outputSeconds) / speed))"
        } else {
            text += " ETA -:--"
        }
        return text
    }

    func clear() { line.clear() }
}
