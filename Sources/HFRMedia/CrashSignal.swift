#if canImport(Glibc)
    import Glibc
#endif

/// A crash (a fault, an abort) ends hfr with one line naming it, instead of the pages of the Swift
/// runtime's backtrace — whose handler even let hfr run on after a SIGABRT sent from outside. The
/// process then dies of the signal as it would have (its exit status says so); an export's output,
/// an unnamed file until complete (`AtomicOutput`), goes with it. `HFR_BACKTRACE=1` keeps the
/// runtime's backtraces, for developers.
public enum CrashSignal {
    /// The faults handled, with their names.
    static let names: [(Int32, String)] = [
        (SIGSEGV, "SIGSEGV"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"), (SIGILL, "SIGILL"), (SIGABRT, "SIGABRT"),
        (SIGTRAP, "SIGTRAP"),
    ]
    /// Each fault's line, made before any can arrive: the handler may only write(2) it.
    nonisolated(unsafe) private static var lines: [UnsafeMutablePointer<CChar>?] = []

    /// Installs the handlers (once, at start, before any thread), unless `HFR_BACKTRACE` is set.
    public static func install() {
        guard getenv("HFR_BACKTRACE") == nil else { return }
        lines = (0..<65).map { number in
            guard let name = names.first(where: { $0.0 == Int32(number) })?.1 else { return nil }
            return strdup(
                "Error: hfr stopped on an internal fault (\(name)): a bug; please report it with the command line\n")
        }
        let handler: @convention(c) (Int32) -> Void = { number in
            // write(2) and raise(3) are async-signal-safe; SA_RESETHAND made the action the default.
            if number >= 0, Int(number) < CrashSignal.lines.count, let line = CrashSignal.lines[Int(number)] {
                _ = write(2, line, strlen(line))
            }
            raise(number)
        }
        // Unblocked: a parent may have started hfr with them blocked (the mask is inherited).
        var set = sigset_t()
        sigemptyset(&set)
        for (number, _) in names { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for (number, _) in names {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            action.sa_flags = Int32(truncatingIfNeeded: Int64(SA_RESETHAND) | Int64(SA_NODEFER))
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }
}
