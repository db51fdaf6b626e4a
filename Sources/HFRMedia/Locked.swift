import Foundation

/// A value only reached under its lock: hfr's one lock type.
///
/// The lock is `NSLock`, a pthread mutex, which ThreadSanitizer understands. `Synchronization.Mutex`
/// it does not: on Linux (Swift 6.3) that mutex waits on a futex inside the uninstrumented standard
/// library, so a `--sanitize=thread` build reports every access it guards as a race (measured with a
/// two-thread counter: a "Swift access race" for a correctly locked `Mutex<[Int]>`, none for this).
public final class Locked<Value: Sendable>: Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`: read and written only inside `withLock`.
    private nonisolated(unsafe) var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Runs `body` with the value if the lock is free now, else returns nil at once.
    public func withLockIfAvailable<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result?
    {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return try body(&value)
    }
}
