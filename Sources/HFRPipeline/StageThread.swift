import Foundation

/// A pipeline stage on a dedicated thread (blocking I/O and encoding never run on the cooperative pool).
public final class StageThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let thread: Thread

    /// Starts `body` on a new thread named `name`.
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let done = self.done
        thread = Thread {
            body()
            done.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits for the stage to return.
    public func join() { done.wait() }
}
