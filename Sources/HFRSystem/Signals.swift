import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What hfr's interrupt handlers do, decided whole before they are installed (fftools'
/// `term_init`): `Signals.install` freezes it into C memory the handlers only read.
public struct SignalPlan: Sendable {
    /// What Ctrl-C, SIGTERM and SIGHUP do.
    public enum Interrupt: Sendable, Equatable {
        /// The first asks for a clean stop (`Signals.isStopRequested`); the second exits 130 at once.
        case stop
        /// A batch: the first asks every child in the `slots` (`Signals.setChild`) to stop with
        /// SIGTERM, the second kills them; the batch itself ends when its children have.
        case forward(slots: Int)
    }

    /// What an interrupt does.
    public var interrupt: Interrupt
    /// Written to stderr by the first interrupt.
    public var stopMessage: String?
    /// Written to stderr by the second interrupt before it exits: while `abortCondition` names a
    /// file that exists (or when it is nil) `abortMessage`, else `abortOtherwise`.
    public var abortMessage: String?
    /// See `abortMessage`.
    public var abortCondition: String?
    /// See `abortMessage`.
    public var abortOtherwise: String?
    /// A file the second interrupt removes before it exits (an unfinished output).
    public var removeOnAbort: String?
    /// SIGUSR1 counts as a trigger (`--trigger signal`, `Signals.triggerCount`).
    public var countsTriggers = false
    /// The terminal's settings are saved at installation and put back by the second interrupt (a key
    /// trigger turns off the terminal's line editing and echo while it records).
    public var restoresTerminal = false

    /// A plan whose interrupts do `interrupt` and say nothing.
    public init(_ interrupt: Interrupt = .stop) { self.interrupt = interrupt }
}

/// The one owner of hfr's signal handlers: faults (a one-line crash report) and interrupts (a
/// `SignalPlan`), and the counts the rest of hfr polls. No other file installs a handler.
public enum Signals {
    /// SIGINT, SIGTERM and SIGHUP (the terminal closed, or a session ended): the ways a user or a
    /// supervisor asks hfr to stop. A child process gets their default actions back.
    public static let interruptNumbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private static let interrupts = Atomic<Int>(0)
    private static let triggers = Atomic<Int>(0)

    /// The installed plan in C memory: strings `strdup`ed, the terminal's settings, the children's
    /// pids. Set up only with the interrupt signals blocked on every thread that could take them
    /// (before any stage thread starts) and read by the handlers; of it only the pids change later,
    /// atomics a batch's workers store while a handler may load them.
    private struct Frozen {
        var stop: UnsafeMutablePointer<CChar>?
        var abort: UnsafeMutablePointer<CChar>?
        var abortCondition: UnsafeMutablePointer<CChar>?
        var abortOtherwise: UnsafeMutablePointer<CChar>?
        var removal: UnsafeMutablePointer<CChar>?
        var terminal: termios?
        var children: UnsafeMutablePointer<Atomic<pid_t>>?
        var childCount = 0
    }
    nonisolated(unsafe) private static var frozen = Frozen()

    /// Whether an interrupt asked hfr to stop.
    public static var isStopRequested: Bool { interrupts.load(ordering: .relaxed) > 0 }

    /// Whether a second interrupt arrived (a batch's children are killed, not asked).
    public static var isUrgent: Bool { interrupts.load(ordering: .relaxed) > 1 }

    /// SIGUSR1s received since start (`SignalPlan.countsTriggers`).
    public static var triggerCount: Int { triggers.load(ordering: .relaxed) }

    /// Installs `plan`'s interrupt handlers, replacing the previous plan, and unblocks the signals on
    /// the calling thread (a parent may have started hfr with them blocked). Call it before starting
    /// threads, which inherit the caller's mask.
    public static func install(_ plan: SignalPlan) {
        var blocked = signalSet(interruptNumbers + [SIGUSR1])
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        frozen = freeze(plan)
        _ = interrupts.load(ordering: .relaxed)  // initialised here, not first in a handler
        _ = triggers.load(ordering: .relaxed)
        for number in interruptNumbers { signal(number, interruptHandler) }
        if plan.countsTriggers { signal(SIGUSR1, triggerHandler) }
        pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
    }

    /// Records the child running in a batch's `slot` (0 when it has ended).
    public static func setChild(_ pid: Int32, slot: Int) {
        guard let children = frozen.children, slot < frozen.childCount else { return }
        children[slot].store(pid, ordering: .relaxed)
    }

    /// Sends `signal` to every running child of a batch.
    public static func signalChildren(_ signal: Int32) {
        guard let children = frozen.children else { return }
        for i in 0..<frozen.childCount {
            let pid = children[i].load(ordering: .relaxed)
            if pid > 0 { kill(pid, signal) }
        }
    }

    private static func freeze(_ plan: SignalPlan) -> Frozen {
        func text(_ message: String?) -> UnsafeMutablePointer<CChar>? { message.map { strdup($0.displayPath) } }
        func path(_ name: String?) -> UnsafeMutablePointer<CChar>? { name.map { $0.withPathBytes { strdup($0) } } }
        var f = Frozen(
            stop: text(plan.stopMessage), abort: text(plan.abortMessage), abortCondition: path(plan.abortCondition),
            abortOtherwise: text(plan.abortOtherwise), removal: path(plan.removeOnAbort))
        // Only a terminal this process owns: setting one in the background would stop it (SIGTTOU).
        if plan.restoresTerminal, isatty(0) != 0, tcgetpgrp(0) == getpgrp() {
            var settings = termios()
            if tcgetattr(0, &settings) == 0 { f.terminal = settings }
        }
        if case .forward(let slots) = plan.interrupt {
            let children = UnsafeMutablePointer<Atomic<pid_t>>.allocate(capacity: max(slots, 1))
            for i in 0..<max(slots, 1) { (children + i).initialize(to: Atomic(0)) }
            f.children = children
            f.childCount = slots
        }
        return f
    }

    /// Ctrl-C, SIGTERM, SIGHUP: only async-signal-safe work (an atomic add, write, unlink, access,
    /// tcsetattr, kill, _exit) on memory frozen before installation.
    private static let interruptHandler: @convention(c) (Int32) -> Void = { _ in
        let count = Signals.interrupts.add(1, ordering: .relaxed).newValue
        let f = Signals.frozen
        if f.children != nil {
            Signals.signalChildren(count >= 2 ? SIGKILL : SIGTERM)
            return
        }
        if count == 1, let text = f.stop { _ = write(2, text, strlen(text)) }
        guard count >= 2 else { return }
        if let path = f.removal { unlink(path) }
        if var settings = f.terminal { tcsetattr(0, TCSANOW, &settings) }
        let exists = f.abortCondition.map { access($0, F_OK) == 0 } ?? true
        if let text = exists ? f.abort : f.abortOtherwise { _ = write(2, text, strlen(text)) }
        _exit(130)
    }

    private static let triggerHandler: @convention(c) (Int32) -> Void = { _ in
        Signals.triggers.add(1, ordering: .relaxed)
    }

    private static func signalSet(_ numbers: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }

    // MARK: faults

    /// The faults handled, with their names.
    static let faults: [(Int32, String)] = [
        (SIGSEGV, "SIGSEGV"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"), (SIGILL, "SIGILL"), (SIGABRT, "SIGABRT"),
        (SIGTRAP, "SIGTRAP"),
    ]
    /// Each fault's line by signal number, made before any can arrive: a plain C array, which the
    /// handler only reads and write(2)s.
    static let faultLineCount = 65
    nonisolated(unsafe) private static let faultLines = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        .allocate(capacity: faultLineCount)

    /// A crash (a fault, an abort) ends hfr with one line naming it, instead of the pages of the
    /// Swift runtime's backtrace — whose handler even let hfr run on after a SIGABRT sent from
    /// outside. The process then dies of the signal as it would have (its exit status says so); an
    /// export's output, an unnamed file until complete (`AtomicOutput`), goes with it.
    /// `HFR_BACKTRACE=1` keeps the runtime's backtraces, for developers. Call it once, at start.
    public static func installCrashHandlers() {
        guard getenv("HFR_BACKTRACE") == nil else { return }
        for number in 0..<faultLineCount {
            faultLines[number] = faults.first { $0.0 == Int32(number) }.map {
                strdup(
                    "Error: hfr stopped on an internal fault (\($0.1)): a bug; please report it with the command line\n"
                )
            }
        }
        let handler: @convention(c) (Int32) -> Void = { number in
            // write(2) and raise(3) are async-signal-safe; SA_RESETHAND made the action the default.
            if number >= 0, Int(number) < Signals.faultLineCount, let line = Signals.faultLines[Int(number)] {
                _ = write(2, line, strlen(line))
            }
            raise(number)
        }
        var set = signalSet(faults.map(\.0))
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for (number, _) in faults {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            action.sa_flags = Int32(truncatingIfNeeded: Int64(SA_RESETHAND) | Int64(SA_NODEFER))
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }
}
