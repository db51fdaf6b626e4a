import HFRMedia
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C and SIGTERM for a batch: the first stops launching jobs and asks every running export to
/// stop (SIGTERM: it removes its temporary output and exits); the second kills them (SIGKILL; the
/// batch removes their temporaries). Either way the batch then writes its reports and exits.
public enum BatchSignal {
    private static let requests = Atomic<Int>(0)
    /// The pid running in each worker's slot (0 = none): read by the handler, so a plain C array
    /// set up once before the handler is installed (pid_t stores are single aligned words).
    nonisolated(unsafe) private static var slots = UnsafeMutablePointer<pid_t>.allocate(capacity: 0)
    nonisolated(unsafe) private static var slotCount = 0

    /// Installs the handlers; `workers` slots for running children.
    public static func install(workers: Int) {
        slots = UnsafeMutablePointer<pid_t>.allocate(capacity: workers)
        slots.initialize(repeating: 0, count: workers)
        slotCount = workers
        let handler: @convention(c) (Int32) -> Void = { _ in
            // Async-signal-safe only: an atomic add and kill(2).
            let count = BatchSignal.requests.add(1, ordering: .relaxed).newValue
            BatchSignal.signalChildren(count >= 2 ? SIGKILL : SIGTERM)
        }
        InterruptSignals.install(handler)
    }

    /// Whether Ctrl-C or SIGTERM arrived.
    public static var isRequested: Bool { requests.load(ordering: .relaxed) > 0 }

    /// Whether a second one arrived (children are killed, not asked).
    public static var isUrgent: Bool { requests.load(ordering: .relaxed) > 1 }

    /// Records the child running in `slot` (0 when it has ended).
    static func setChild(_ pid: pid_t, slot: Int) { slots[slot] = pid }

    /// Sends `signal` to every running child.
    static func signalChildren(_ signal: Int32) {
        for i in 0..<slotCount where slots[i] > 0 { kill(slots[i], signal) }
    }
}
