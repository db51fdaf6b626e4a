import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An export that `hfr batch` started stops, cleanly, when the batch is gone (killed with SIGKILL,
/// say), removing its temporary output instead of finishing for nobody.
struct ParentWatch {
    /// The batch's pid, from `HFR_BATCH_PARENT`; nil when not started by a batch.
    let batch: pid_t?
    /// The parent when the export started: the batch, or a wrapper it ran (`HFR_BATCH_EXECUTABLE`).
    let parent: pid_t

    /// The watch for this process, taken before any work starts.
    static func current() -> ParentWatch {
        ParentWatch(
            batch: ProcessInfo.processInfo.environment["HFR_BATCH_PARENT"].flatMap { pid_t($0) }, parent: getppid())
    }

    /// Whether this process was started by a batch that has since gone: its parent changed (it was
    /// the batch), or the batch no longer exists (it was a wrapper in between).
    var isOrphaned: Bool {
        guard let batch else { return false }
        return getppid() != parent || (kill(batch, 0) != 0 && errno == ESRCH)
    }
}
