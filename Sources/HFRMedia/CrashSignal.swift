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
    /// Each fault's line by signal number, made before any can arrive: a plain C array, which the
    /// handler only reads and write(2)s (no Swift array retained inside a signal handler).
    static let lineCount = 65
    nonisolated(unsafe) private static let lines = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
        capacity: lineCount)

    /// Installs the handlers (once, at start, before any thread), unless `HFR_BACKTRACE` is set.
    public static func install() {
        guard getenv("HFR_BACKTRACE") == nil else { return }
        for number in 0..<lineCount {
            let name = names.first { $0.0 == Int32(number) }?.1
            lines[number] = name.map {
                strdup(
                    "Error: hfr stopped on an internal fault (\($0)): a bug; please report it with the command line\n")
            }
        }
        let handler: @convention(c) (Int32) -> Void = { number in
            // write(2) and raise(3) are async-signal-safe; SA_RESETHAND made the action the default.
            if number >= 0, Int(number) < CrashSignal.lineCount, let line = CrashSignal.lines[Int(number)] {
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
