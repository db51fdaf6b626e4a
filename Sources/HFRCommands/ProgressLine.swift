import Foundation
import HFRMedia
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where progress goes on stderr, as ffmpeg's stats line does: on a terminal one line rewritten in
/// place (`\r`, erased to the end); otherwise whole lines, at most one every `interval` seconds (CI
/// logs, files); nothing with `-q`. Not thread-safe: each owner calls it from one thread at a time.
final class ProgressLine {
    enum Style {
        case terminal
        case lines
        case quiet
    }

    /// `hfr -q`: no progress at all (set once by `HFR.main`, before any command runs).
    static let isQuiet = Atomic<Bool>(false)
    /// Seconds between whole lines when stderr is not a terminal.
    static let interval = 5.0

    /// The style for stderr now.
    static var style: Style {
        isQuiet.load(ordering: .relaxed) ? .quiet : Console.isTerminal(2) ? .terminal : .lines
    }

    /// What a message the signal handler writes starts with: a newline ending the live line on a
    /// terminal (the handler cannot know whether one is shown).
    static var abortPrefix: String { style == .terminal ? "\n" : "" }

    let style: Style
    /// What starts each whole line (`export: `); the live line on a terminal goes without it.
    let prefix: String
    private var lastLine: Date
    private(set) var isShown = false

    /// `prefix` starts whole lines; the first comes `interval` seconds after this.
    init(style: Style = ProgressLine.style, prefix: String) {
        self.style = style
        self.prefix = prefix
        lastLine = Date()
    }

    /// Shows `text`: redrawn in place on a terminal (cut to its width), else as a whole line when
    /// one is due (`force`: now, whatever the interval).
    func update(_ text: String, force: Bool = false) {
        switch style {
        case .terminal:
            Console.error("\r" + ProgressLine.fit(text, width: ProgressLine.terminalWidth - 1) + "\u{1B}[K")
            isShown = true
        case .lines:
            guard force || Date().timeIntervalSince(lastLine) >= ProgressLine.interval else { return }
            lastLine = Date()
            Console.error(prefix + text + "\n")
        case .quiet:
            break
        }
    }

    /// Erases the live line (before the summary or an error takes its place).
    func clear() {
        if isShown { Console.error("\r\u{1B}[K") }
        isShown = false
    }

    /// Ends the live line where it stands, keeping it on screen (before a message that follows it).
    func end() {
        if isShown { Console.error("\n") }
        isShown = false
    }

    /// Columns of the terminal on stderr (80 when it does not say).
    static var terminalWidth: Int {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// `text` cut to `width` characters, ending in `…` when cut.
    static func fit(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }

    /// `0:04`, `1:05`, `1:02:03` (whole seconds).
    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded())
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }

    /// `0:04.2`, `1:05.0`: minutes, seconds and tenths.
    static func clockTenths(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        let s = tenths / 10
        let minutes = s / 60
        let rest = s % 60
        return "\(minutes):\(rest < 10 ? "0" : "")\(rest).\(tenths % 10)"
    }

    /// `text` right-aligned in `width` columns (`frame=  1234`, as ffmpeg pads its fields).
    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
