import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pipeline stage on a dedicated thread (blocking I/O and encoding never run on the cooperative
/// pool), returning its `Result` to whoever joins it.
///
/// The body is taken as `sending`: whatever it captures (a stage object, its C contexts) is handed
/// over whole, so the compiler checks that the creating thread no longer touches it; what the stage
/// has to say afterwards comes back through `join()`, not through shared fields.
public final class StageThread<Result: Sendable> {
    private let thread: pthread_t
    private let slot: ResultSlot<Result>
    private var isJoined = false

    /// Starts `body` on a new thread named `name`.
    public init(name: String, _ body: sending @escaping () -> Result) {
        slot = ResultSlot(name: name, body: body)
        thread = startThread(running: slot)
    }

    deinit {
        if !isJoined { pthread_detach(thread) }
    }

    /// Waits for the stage to return and gives its result.
    public func join() -> Result {
        if !isJoined {
            pthread_join(thread, nil)
            isJoined = true
        }
        return slot.result!
    }
}

/// What a new thread runs: reached by that thread through pthread's argument, and by `join()`
/// only after pthread_join, which orders the thread's writes before the joiner's reads.
private class ThreadEntry {
    let name: String
    init(name: String) { self.name = name }
    func run() {}
}

private final class ResultSlot<Result>: ThreadEntry {
    var body: (() -> Result)?
    var result: Result?

    init(name: String, body: @escaping () -> Result) {
        self.body = body
        super.init(name: name)
    }

    override func run() {
        result = body!()
        body = nil
    }
}

/// Starts a thread with a 1 MiB stack that runs `entry`.
private func startThread(running entry: ThreadEntry) -> pthread_t {
    var thread = pthread_t()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 1 << 20)
    let created = pthread_create(
        &thread, &attributes,
        { raw in
            let entry = Unmanaged<ThreadEntry>.fromOpaque(raw!).takeRetainedValue()
            Thread.current.name = entry.name
            entry.run()
            return nil
        }, Unmanaged.passRetained(entry).toOpaque())
    pthread_attr_destroy(&attributes)
    precondition(created == 0, "pthread_create: \(Errno(rawValue: created))")
    return thread
}
