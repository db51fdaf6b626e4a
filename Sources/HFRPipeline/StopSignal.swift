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
        abandonedPath = strdup(path)
    }

    /// Installs the handlers for SIGINT and SIGTERM.
    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in
            // Only async-signal-safe work here: an atomic add, and _exit on the second signal.
            if StopSignal.requests.add(1, ordering: .relaxed).newValue >= 2 {
                // unlink is async-signal-safe.
                if let path = StopSignal.abandonedPath { unlink(path) }
                _exit(130)
            }
        }
        // Before the stage threads start, so they inherit the unblocked mask.
        InterruptSignals.install(handler)
    }

    /// Whether a stop was requested.
    public static var isRequested: Bool { requests.load(ordering: .relaxed) > 0 }
}
