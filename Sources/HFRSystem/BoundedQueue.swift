/// A queue between two stage threads, bounded by a count of elements or by the bytes they hold
/// (`--buffer ram`), carrying end-of-stream both ways.
///
/// Downstream EOF: producers call `finish()`; once all have, `pop()` drains and then returns nil.
/// Upstream EOF: a failing consumer calls `cancel()`; producers' `push` then returns `.cancelled`
/// so they stop instead of blocking forever (the fftools scheduler's rule).
///
/// Checked Sendable: all its state is in one `Locked` value, its elements and `bytes` are `Sendable`.
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

    /// The most elements that may wait.
    public let capacity: Int
    /// The most bytes the waiting elements may hold together, when the queue is bounded by bytes
    /// (`--buffer ram`); nil when only `capacity` bounds it.
    public let byteBudget: Int?
    /// What an element holds, for `byteBudget` (read once, as it enters).
    private let bytes: @Sendable (Element) -> Int
    private let state: Locked<State>

    /// A ring of slots, what they hold against the bounds, and who is still there.
    struct State {
        var items: [(element: Element, bytes: Int)?]
        var head = 0
        var count = 0
        let capacity: Int
        let byteBudget: Int?
        /// Bytes of the elements waiting now, and the most they (and their count) ever were.
        var heldBytes = 0
        var peakBytes = 0
        var peakCount = 0
        var openProducers: Int
        var isCancelled = false

        /// Whether an element of `bytes` fits. The budget holds whatever fits in it; an element
        /// larger than the whole budget still passes, alone, so a waiting producer is never stuck.
        func hasRoom(for bytes: Int) -> Bool {
            guard count < capacity else { return false }
            guard let byteBudget, count > 0 else { return true }
            return heldBytes + bytes <= byteBudget
        }

        /// Adds an element at the end (there is room); a byte-bounded queue's ring grows as needed.
        mutating func append(_ element: Element, bytes: Int) {
            if count == items.count {
                items = (0..<count).map { items[(head + $0) % items.count] } + Array(repeating: nil, count: count)
                head = 0
            }
            items[(head + count) % items.count] = (element, bytes)
            count += 1
            heldBytes += bytes
            peakBytes = max(peakBytes, heldBytes)
            peakCount = max(peakCount, count)
        }

        /// Takes the oldest element (there is one).
        mutating func take() -> Element? {
            let slot = items[head].take()
            head = (head + 1) % items.count
            count -= 1
            heldBytes -= slot?.bytes ?? 0
            return slot?.element
        }
    }

    /// A queue of at most `capacity` elements for `producers` producer threads (each calls
    /// `finish()` once).
    public convenience init(capacity: Int, producers: Int = 1) {
        self.init(capacity: capacity, byteBudget: nil, producers: producers, bytes: { _ in 0 })
    }

    /// A queue bounded by the bytes its elements hold (`bytes` of each) rather than by their count.
    public convenience init(byteBudget: Int, producers: Int = 1, bytes: @escaping @Sendable (Element) -> Int) {
        self.init(capacity: Int.max, byteBudget: byteBudget, producers: producers, bytes: bytes)
    }

    private init(capacity: Int, byteBudget: Int?, producers: Int, bytes: @escaping @Sendable (Element) -> Int) {
        precondition(capacity > 0 && producers > 0 && (byteBudget ?? 1) > 0)
        self.capacity = capacity
        self.byteBudget = byteBudget
        self.bytes = bytes
        // A count-bounded queue has all its slots from the start; a byte-bounded one grows its ring.
        let slots = byteBudget == nil ? capacity : 64
        state = Locked(
            State(
                items: Array(repeating: nil, count: slots), capacity: capacity, byteBudget: byteBudget,
                openProducers: producers))
    }

    /// Adds `element`, waiting for room or dropping it according to `policy`.
    public func push(_ element: consuming Element, policy: FullPolicy = .block) -> PushResult {
        let element = Optional(element)
        let size = byteBudget == nil ? 0 : bytes(element!)
        return state.withLock(when: { $0.hasRoom(for: size) || $0.isCancelled || policy == .dropIfFull }) { s in
            if s.isCancelled { return .cancelled }
            if !s.hasRoom(for: size) { return .dropped }
            s.append(element!, bytes: size)
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
            s.heldBytes = 0
        }
    }

    /// Elements waiting now (for the status line).
    public var depth: Int { state.withLock { $0.count } }

    /// Bytes the waiting elements hold now (0 unless the queue is bounded by bytes).
    public var heldBytes: Int { state.withLock { $0.heldBytes } }

    /// The fullest the queue was: the most elements and the most bytes waiting at once.
    public var peak: (count: Int, bytes: Int) { state.withLock { ($0.peakCount, $0.peakBytes) } }
}
