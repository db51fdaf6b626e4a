import HFRMedia
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C and SIGTERM as a flag the pipeline polls: the first asks for a clean stop (finalize the file),
/// the second aborts at once, leaving the crash-safe partial file.
public enum StopSignal {
    private static let requests = Atomic<Int>(0)
    /// A file the second signal removes before exiting (an export's temporary output); set once,
    /// before the signal can arrive, and only read by the handler.
    nonisolated(unsafe) private static var abandonedPath: UnsafeMutablePointer<CChar>?

    /// Makes a second Ctrl-C remove `path` (an unfinished output) before it exits.
    public static func removeOnAbort(_ path: String) {
        abandonedPath = path.withPathBytes { strdup($0) }
    }

    /// What the second signal writes to stderr before exiting: `text` while `path` exists (a partial
    /// recording it names), else `otherwise`. Prepared now: the handler may only write(2) it.
    public static func sayOnAbort(_ text: String, whileExists path: String? = nil, otherwise: String = "") {
        abortText = strdup(text.displayPath)
        abortOtherwise = strdup(otherwise.displayPath)
        abortCondition = path.map { $0.withPathBytes { strdup($0) } }
    }
    /// What the first signal writes to stderr (prepared now, as `sayOnAbort`'s text).
    public static func sayOnStop(_ text: String) { stopText = strdup(text.displayPath) }
    nonisolated(unsafe) private static var stopText: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var abortText: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var abortOtherwise: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var abortCondition: UnsafeMutablePointer<CChar>?

    /// Makes the second signal put the terminal back to `settings` before exiting (a key trigger
    /// turned off its line editing and echo). Set before the signal can arrive.
    public static func restoreTerminalOnAbort(_ settings: termios) { terminal = settings }
    nonisolated(unsafe) private static var terminal: termios?

    /// Installs the handlers for SIGINT and SIGTERM.
    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in
            // Only async-signal-safe work here: an atomic add, and _exit on the second signal.
            let count = StopSignal.requests.add(1, ordering: .relaxed).newValue
            if count == 1, let text = StopSignal.stopText { _ = write(2, text, strlen(text)) }
            if count >= 2 {
                // unlink, access, strlen and write are async-signal-safe.
                if let path = StopSignal.abandonedPath { unlink(path) }
                // tcsetattr is async-signal-safe.
                if var settings = StopSignal.terminal { tcsetattr(0, TCSANOW, &settings) }
                let exists = StopSignal.abortCondition.map { access($0, F_OK) == 0 } ?? true
                if let text = exists ? StopSignal.abortText : StopSignal.abortOtherwise {
                    _ = write(2, text, strlen(text))
                }
                _exit(130)
            }
        }
        // Before the stage threads start, so they inherit the unblocked mask.
        InterruptSignals.install(handler)
    }

    /// Whether a stop was requested.
    public static var isRequested: Bool { requests.load(ordering: .relaxed) > 0 }
}
