#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C and SIGTERM, the two ways a user or a supervisor asks hfr to stop: one place that routes
/// both to a handler (a recording's or export's stop flag, a batch's forwarding to its children).
public enum InterruptSignals {
    /// SIGINT, SIGTERM and SIGHUP (the terminal closed, or a session ended).
    public static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// `numbers` as a signal set, for `pthread_sigmask`.
    static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }

    /// Routes SIGINT, SIGTERM and SIGHUP to `handler` (which must be async-signal-safe) and unblocks them on
    /// the calling thread. A parent may have started hfr with them blocked (the mask is inherited);
    /// call this before starting threads, which inherit the caller's mask.
    public static func install(_ handler: @convention(c) (Int32) -> Void) {
        for number in numbers { signal(number, handler) }
        var set = set
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
