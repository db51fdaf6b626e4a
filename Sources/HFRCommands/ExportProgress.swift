import Foundation
import HFRMedia

/// Progress of a long export on stderr: a live line on a terminal, else a line every few seconds.
final class ExportProgress {
    let isTerminal: Bool
    private let started = Date()
    private var lastLine = Date.distantPast
    private var shown = false

    init(isTerminal: Bool) { self.isTerminal = isTerminal }

    func show(_ fraction: Double) {
        let elapsed = Date().timeIntervalSince(started)
        let percent = Int((fraction * 100).rounded())
        if isTerminal {
            Console.error("\rexport: \(percent) % of the input read")
            shown = true
        } else if elapsed > 2, Date().timeIntervalSince(lastLine) >= 5 {
            lastLine = Date()
            Console.error("export: \(percent) % of the input read after \(Int(elapsed)) s\n")
        }
    }

    func clear() {
        if shown { Console.error("\r\u{1B}[K") }
        shown = false
    }
}
