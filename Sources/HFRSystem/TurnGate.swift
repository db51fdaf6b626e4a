/// Lets threads that finish numbered pieces of work in any order pass them on in number order:
/// the thread holding number n waits until n - 1 has been passed on (`advance()`).
package final class TurnGate: Sendable {
    /// The number whose turn it is, and whether the gate was stopped.
    private let state = Locked((turn: 0, isStopped: false))

    /// A gate whose first turn is number 0.
    package init() {}

    /// Waits until it is `number`'s turn; false when the gate was stopped instead.
    package func wait(for number: Int) -> Bool {
        state.withLock(when: { $0.turn == number || $0.isStopped }) { !$0.isStopped }
    }

    /// The current number is passed on: the next one's turn.
    package func advance() { state.withLock { $0.turn += 1 } }

    /// Releases every waiting thread (they give up).
    package func stop() { state.withLock { $0.isStopped = true } }
}
