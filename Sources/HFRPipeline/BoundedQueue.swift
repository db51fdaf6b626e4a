#if canImport(Glibc)
    import Glibc
#endif

/// A fixed-capacity queue between two stage threads, carrying end-of-stream both ways.
///
/// Downstream EOF: producers call `finish()`; once all have, `pop()` drains and then returns nil.
/// Upstream EOF: a failing consumer calls `cancel()`; producers' `push` then returns `.cancelled`
/// so they stop instead of blocking forever (the fftools scheduler's rule).
///
/// `@unchecked Sendable`: every field is read and written only under `mutex`, which the checker
/// cannot see through (a `Mutex` has no condition variables to wait on).
public final class BoundedQueue<Element>: @unchecked Sendable {
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
    private var items: [Element?]
    private var head = 0
    private var count = 0
    private var openProducers: Int
    private var isCancelled = false
    private var mutex = pthread_mutex_t()
    private var notEmpty = pthread_cond_t()
    private var notFull = pthread_cond_t()

    /// A queue for `producers` producer threads (each calls `finish()` once).
    public init(capacity: Int, producers: Int = 1) {
        precondition(capacity > 0 && producers > 0)
        self.capacity = capacity
        items = Array(repeating: nil, count: capacity)
        openProducers = producers
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&notEmpty, nil)
        pthread_cond_init(&notFull, nil)
    }

    deinit {
        pthread_cond_destroy(&notFull)
        pthread_cond_destroy(&notEmpty)
        pthread_mutex_destroy(&mutex)
    }

    /// Adds `element`, waiting for room or dropping it according to `policy`.
    public func push(_ element: consuming Element, policy: FullPolicy = .block) -> PushResult {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while count == capacity && !isCancelled {
            if policy == .dropIfFull { return .dropped }
            pthread_cond_wait(&notFull, &mutex)
        }
        if isCancelled { return .cancelled }
        items[(head + count) % capacity] = element
        count += 1
        pthread_cond_signal(&notEmpty)
        return .pushed
    }

    /// Takes the oldest element, waiting for one; nil once every producer finished and all is drained,
    /// or when cancelled.
    public func pop() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while count == 0 && openProducers > 0 && !isCancelled {
            pthread_cond_wait(&notEmpty, &mutex)
        }
        if isCancelled || count == 0 { return nil }
        let element = items[head].take()
        head = (head + 1) % capacity
        count -= 1
        pthread_cond_signal(&notFull)
        return element
    }

    /// Takes the oldest element if there is one, without waiting.
    public func tryPop() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard count > 0, !isCancelled else { return nil }
        let element = items[head].take()
        head = (head + 1) % capacity
        count -= 1
        pthread_cond_signal(&notFull)
        return element
    }

    /// One producer is done (downstream EOF once all are).
    public func finish() {
        pthread_mutex_lock(&mutex)
        openProducers = max(0, openProducers - 1)
        pthread_cond_broadcast(&notEmpty)
        pthread_mutex_unlock(&mutex)
    }

    /// The consumer stopped: wake everyone, refuse further elements, drop what is queued.
    public func cancel() {
        pthread_mutex_lock(&mutex)
        isCancelled = true
        for i in 0..<capacity { items[i] = nil }
        count = 0
        pthread_cond_broadcast(&notEmpty)
        pthread_cond_broadcast(&notFull)
        pthread_mutex_unlock(&mutex)
    }

    /// Elements waiting now (for the status line).
    public var depth: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return count
    }
}
