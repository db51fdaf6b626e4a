#if canImport(Glibc)
    import Glibc
#endif

/// A value only reached under its lock: hfr's one lock type, and its one way to wait for another
/// thread (a condition variable on the same lock, woken whenever a `withLock` returns).
///
/// Built on a pthread mutex and condition, which ThreadSanitizer understands. `Synchronization.Mutex`
/// it does not: on Linux (Swift 6.3) that mutex waits on a futex inside the uninstrumented standard
/// library, so a `--sanitize=thread` build reports every access it guards as a race (measured with a
/// two-thread counter: a "Swift access race" for a correctly locked `Mutex<[Int]>`, none for this);
/// and a `Mutex` has no condition to wait on.
public final class Locked<Value: Sendable>: Sendable {
    /// Allocated once, so their addresses never move (a pthread object must not be copied).
    private nonisolated(unsafe) let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private nonisolated(unsafe) let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Guarded by `mutex`: read and written only inside `withLock`.
    private nonisolated(unsafe) var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        // Timed waits count on the monotonic clock: a wall-clock step neither cuts nor stretches them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; then wakes the threads waiting for a change.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { unlockAfterChange() }
        return try body(&value)
    }

    /// Waits until `isReady` holds for the value (the lock released while waiting, woken by every
    /// other `withLock`), or `timeout` seconds have passed, then runs `body` holding the lock. After
    /// a timeout `isReady` may not hold: `body` sees the value as it is.
    public func withLock<Result, Failure: Error>(
        when isReady: (Value) -> Bool, timeout: Double? = nil, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { unlockAfterChange() }
        if let timeout {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let nanoseconds = Int(deadline.tv_nsec) + Int(max(0, timeout) * 1e9)
            deadline.tv_sec += nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            while !isReady(value), pthread_cond_timedwait(changed, mutex, &deadline) != ETIMEDOUT {}
        } else {
            while !isReady(value) { pthread_cond_wait(changed, mutex) }
        }
        return try body(&value)
    }

    /// Runs `body` with the value if the lock is free now, else returns nil at once.
    public func withLockIfAvailable<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result?
    {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { unlockAfterChange() }
        return try body(&value)
    }

    private func unlockAfterChange() {
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
