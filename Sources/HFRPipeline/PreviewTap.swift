import HFRMedia
import Synchronization

/// Where the capture side offers pictures to a live preview without ever waiting for it: a one-slot
/// mailbox holding the latest copy. The capture thread copies a frame only when the preview's
/// interval has passed and the mailbox is not being read at that instant (try-lock); otherwise the
/// frame is simply not offered. The preview thread takes the latest copy on its own schedule.
/// Every picture, copied or not, is shown to `observer` first (the flicker meter needs them all).
public final class PreviewTap: Sendable {
    /// At most this many pictures a second are copied.
    public let maxFPS: Int
    /// Sees each picture offered and its capture time in seconds, on the capture thread: it must be
    /// cheap and must not wait.
    private let observer: (@Sendable (Frame, Double) -> Void)?
    private let slot = Locked<Frame?>(nil)
    /// Monotonic µs of the last offer taken.
    private let lastOffer = Atomic<Int64>(Int64.min / 2)
    private let offeredCount = Atomic<Int>(0)

    public init(maxFPS: Int = 30, observer: (@Sendable (Frame, Double) -> Void)? = nil) {
        self.maxFPS = max(1, maxFPS)
        self.observer = observer
    }

    /// Pictures copied into the mailbox so far.
    public var offered: Int { offeredCount.load(ordering: .relaxed) }

    /// Called by the capture thread for each picture, captured at `time` (seconds on the source's
    /// clock; nil when it has none); copies it when it is time and the slot is free.
    public func offer(_ frame: Frame, at time: Double?) {
        if let observer, let time { observer(frame, time) }
        let now = Clock.monotonicMicroseconds
        // A little under the interval, so a 60 fps source is not decimated to 20 by jitter.
        guard now - lastOffer.load(ordering: .relaxed) >= 900_000 / Int64(maxFPS) else { return }
        guard let copy = try? frame.copyPicture() else { return }
        let stored = slot.withLockIfAvailable { latest -> Bool in
            latest = copy
            return true
        }
        if stored == true {
            lastOffer.store(now, ordering: .relaxed)
            offeredCount.add(1, ordering: .relaxed)
        }
    }

    /// The latest picture, if one arrived since the last call.
    public func take() -> Frame? {
        slot.withLock { latest in
            let frame = latest
            latest = nil
            return frame
        }
    }
}
