import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C and SIGTERM as a flag the pipeline polls: the first asks for a clean stop (finalize the file),
/// the second aborts at once, leaving the crash-safe partial file.
public enum StopSignal {
    private static let requests = Atomic<Int>(0)

    /// Installs the handlers for SIGINT and SIGTERM.
    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in
            // Only async-signal-safe work here: an atomic add, and _exit on the second signal.
            if StopSignal.requests.add(1, ordering: .relaxed).newValue >= 2 { _exit(130) }
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }

    /// Whether a stop was requested.
    public static var isRequested: Bool { requests.load(ordering: .relaxed) > 0 }
}
