import Dispatch

/// Runs `body` for `count` indices at once (Dispatch's threads, one per core) and returns the
/// results in index order. Each call must touch only what is its own.
public func inParallel<Result>(_ count: Int, _ body: @escaping (Int) -> Result) -> [Result] {
    let work = ParallelWork(count: count, body: body)
    DispatchQueue.concurrentPerform(iterations: count) { work.run($0) }
    return work.results
}

/// One parallel step: a result slot per index, written only by that index's call, read after
/// `concurrentPerform` returns (which orders the writes before the read).
private final class ParallelWork<Result>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Result?>
    private let body: (Int) -> Result

    init(count: Int, body: @escaping (Int) -> Result) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
        self.body = body
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    func run(_ index: Int) { slots[index] = body(index) }

    var results: [Result] { slots.map { $0! } }
}
