import HFRMedia

/// A fixed-capacity queue between two stage threads, carrying end-of-stream both ways.
///
/// Downstream EOF: producers call `finish()`; once all have, `pop()` drains and then returns nil.
/// Upstream EOF: a failing consumer calls `cancel()`; producers' `push` then returns `.cancelled`
/// so they stop instead of blocking forever (the fftools scheduler's rule).
///
/// Checked Sendable: all its state is in one `Locked` value, and its elements are `Sendable`.
public final class BoundedQueue<Element: Sendable>: Sendable {
    /// What `push` did with the element.
    public enum PushResult: Equatable, Sendable {
        case pushed
        /// The queue was full and the policy was `.dropIfFull`.
        case dropped
        /// The consumer cancelled; stop producing.
        case cancelled
    }

    /// What to do when the queue is full.
    public enum FullPolicy: Sendable {
        /// Wait for room: back-pressure reaches the producer.
        case block
        /// Drop the new element and report it.
        case dropIfFull
    }

    public let capacity: Int
    private let state: Locked<State>

    /// A ring of `capacity` slots, and who is still there.
    struct State {
        var items: [Element?]
        var head = 0
        var count = 0
        var openProducers: Int
        var isCancelled = false

        /// Takes the oldest element (there is one).
        mutating func take() -> Element? {
            let element = items[head].take()
            head = (head + 1) % items.count
            count -= 1
            return element
        }
    }

    /// A queue for `producers` producer threads (each calls `finish()` once).
    public init(capacity: Int, producers: Int = 1) {
        precondition(capacity > 0 && producers > 0)
        self.capacity = capacity
        state = Locked(State(items: Array(repeating: nil, count: capacity), openProducers: producers))
    }

    /// Adds `element`, waiting for room or dropping it according to `policy`.
    public func push(_ element: consuming Element, policy: FullPolicy = .block) -> PushResult {
        let capacity = capacity
        let element = Optional(element)
        return state.withLock(when: { $0.count < capacity || $0.isCancelled || policy == .dropIfFull }) { s in
            if s.isCancelled { return .cancelled }
            if s.count == capacity { return .dropped }
            s.items[(s.head + s.count) % capacity] = element
            s.count += 1
            return .pushed
        }
    }

    /// Takes the oldest element, waiting for one; nil once every producer finished and all is drained,
    /// or when cancelled.
    public func pop() -> Element? {
        state.withLock(when: { $0.count > 0 || $0.openProducers == 0 || $0.isCancelled }) { s in
            s.isCancelled || s.count == 0 ? nil : s.take()
        }
    }

    /// Takes the oldest element if there is one, without waiting.
    public func tryPop() -> Element? {
        state.withLock { s in s.count == 0 || s.isCancelled ? nil : s.take() }
    }

    /// One producer is done (downstream EOF once all are).
    public func finish() {
        state.withLock { s in s.openProducers = max(0, s.openProducers - 1) }
    }

    /// The consumer stopped: wake everyone, refuse further elements, drop what is queued.
    public func cancel() {
        state.withLock { s in
            s.isCancelled = true
            for i in s.items.indices { s.items[i] = nil }
            s.count = 0
        }
    }

    /// Elements waiting now (for the status line).
    public var depth: Int { state.withLock { $0.count } }
}
