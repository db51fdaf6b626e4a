#if canImport(Glibc)
    import Glibc
#endif

/// Lets threads that finish numbered pieces of work in any order pass them on in number order:
/// the thread holding number n waits until n - 1 has been passed on (`advance()`).
///
/// `@unchecked Sendable`: `turn` and `isStopped` are read and written only under `mutex`.
final class TurnGate: @unchecked Sendable {
    private var turn = 0
    private var isStopped = false
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Waits until it is `number`'s turn; false when the gate was stopped instead.
    func wait(for number: Int) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while turn != number && !isStopped { pthread_cond_wait(&changed, &mutex) }
        return !isStopped
    }

    /// The current number is passed on: the next one's turn.
    func advance() {
        pthread_mutex_lock(&mutex)
        turn += 1
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// Releases every waiting thread (they give up).
    func stop() {
        pthread_mutex_lock(&mutex)
        isStopped = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
