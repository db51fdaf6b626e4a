import HFRMedia
import Synchronization

/// Whether the source keeps up with the rate asked: from 0.6 s after the first frame (so a warning
/// comes within a second), the media time it delivered (the end of its last frame) against the
/// wall-clock time it had — the capture thread's own work and its waits on the pipeline
/// (`--late-frames queue`) left out, so only the source's slowness counts. A source behind by more
/// than a tenth of that time (and 0.2 s, a camera's hiccup) is slow: the watch says so once, and
/// `--duration`, a promise in wall-clock time, is then kept by the clock.
///
/// The capture thread writes, the watch thread reads: everything is atomic.
final class SourcePace: Sendable {
    /// The rate asked for.
    let rate: Rational
    /// Monotonic µs of the first frame; 0 before it.
    private let firstFrame = Atomic<Int64>(0)
    /// µs of media delivered (the end of the last frame, from the first).
    private let mediaEnd = Atomic<Int64>(0)
    private let frames = Atomic<Int>(0)
    /// µs the capture thread spent away from the source (its own work, waits on full queues).
    private let busyTotal = Atomic<Int64>(0)
    /// When the capture thread last left the source (monotonic µs); 0 while it waits on it.
    private let busySince = Atomic<Int64>(0)
    /// µs after the first frame when the source was found slow; 0 while it is not.
    private let slowAt = Atomic<Int64>(0)

    init(rate: Rational) { self.rate = rate }

    /// The capture thread asks the source for its next item.
    func enterSource() {
        let since = busySince.exchange(0, ordering: .relaxed)
        if since > 0 { busyTotal.add(Clock.monotonicMicroseconds - since, ordering: .relaxed) }
    }

    /// The source answered: what follows is the capture thread's time, not the source's.
    func leaveSource() { busySince.store(Clock.monotonicMicroseconds, ordering: .relaxed) }

    /// A frame was delivered, its end `end` seconds after the first frame's start.
    func noteFrame(end: Rational) {
        if firstFrame.load(ordering: .relaxed) == 0 {
            busyTotal.store(0, ordering: .relaxed)
            firstFrame.store(Clock.monotonicMicroseconds, ordering: .relaxed)
        }
        frames.add(1, ordering: .relaxed)
        mediaEnd.store((end * Rational(1_000_000)).rounded(), ordering: .relaxed)
    }

    /// Wall-clock µs since the first frame (0 before it).
    var wallSinceFirstFrame: Int64 {
        let first = firstFrame.load(ordering: .relaxed)
        return first == 0 ? 0 : Clock.monotonicMicroseconds - first
    }

    /// µs the source had since the first frame: the wall clock less the capture thread's own time.
    private var sourceMicroseconds: Int64 {
        let since = busySince.load(ordering: .relaxed)
        let busy = busyTotal.load(ordering: .relaxed) + (since > 0 ? Clock.monotonicMicroseconds - since : 0)
        return max(0, wallSinceFirstFrame - busy)
    }

    /// Whether the source was found slow.
    var isSlow: Bool { slowAt.load(ordering: .relaxed) > 0 }

    /// Seconds after the first frame when the source was found slow; nil while it is not.
    var noticedAfter: Double? {
        let at = slowAt.load(ordering: .relaxed)
        return at > 0 ? Double(at) / 1e6 : nil
    }

    /// Frames per second the source delivered in the time it had.
    var deliveredFPS: Double {
        let seconds = Double(sourceMicroseconds) / 1e6
        return seconds > 0 ? Double(frames.load(ordering: .relaxed)) / seconds : 0
    }

    /// Looks at the source now; true the first time it is found slow.
    func check() -> Bool {
        guard !isSlow else { return false }
        let had = sourceMicroseconds
        guard had >= 600_000, mediaEnd.load(ordering: .relaxed) < had - max(had / 10, 200_000) else { return false }
        slowAt.store(max(1, wallSinceFirstFrame), ordering: .relaxed)
        return true
    }
}
