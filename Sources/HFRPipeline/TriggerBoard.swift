import HFRMedia
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where triggers meet the clip stage. Triggers that know their time (motion: the picture's pts;
/// audio: the sample's) are posted with it; the others (a signal, a key, the preview's button)
/// are requests the capture thread stamps with the time of the frame it holds when it sees them.
/// The clip stage takes them all in its own time.
public final class TriggerBoard: Sendable {
    public let settings: TriggerSettings
    private let timed = Locked<[TriggerEvent]>([])
    private let requests = Locked<[TriggerKind]>([])
    /// SIGUSR1s already stamped (`Signals.triggerCount` is the total).
    private let signalsSeen = Atomic<Int>(0)
    /// The latest motion score, in hundredths of a percent (the preview shows it).
    private let motion = Atomic<Int>(0)
    private let firedCount = Atomic<Int>(0)
    private let clipCount = Atomic<Int>(0)
    private let rawRingPeak = Atomic<Int>(0)
    /// When each detector last fired (seconds from the first frame), and whether its measure has
    /// fallen below the threshold since: a detector fires again only then and `rearmAfter` later.
    private let detectors = Locked<[TriggerKind: (time: Rational, isArmed: Bool)]>([:])

    public init(settings: TriggerSettings) {
        self.settings = settings
        signalsSeen.store(Signals.triggerCount, ordering: .relaxed)
    }

    /// Asks for a clip now (a key, the preview's button); false if `kind` is not one of the
    /// recording's triggers.
    @discardableResult
    public func request(_ kind: TriggerKind) -> Bool {
        guard settings.kinds.contains(kind) else { return false }
        requests.withLock { $0.append(kind) }
        return true
    }

    /// The capture thread, for each frame: the requests since the last frame happen at `time`.
    func stamp(at time: Rational) {
        var events: [TriggerEvent] = []
        if settings.kinds.contains(.signal) {
            let total = Signals.triggerCount
            let seen = signalsSeen.exchange(total, ordering: .relaxed)
            if total > seen { events.append(TriggerEvent(time: time, kind: .signal)) }
        }
        let kinds = requests.withLock { r -> [TriggerKind] in
            defer { r.removeAll() }
            return r
        }
        events += kinds.map { TriggerEvent(time: time, kind: $0) }
        if !events.isEmpty { post(events) }
    }

    /// A detector's measure at `time`: fires when `isAbove` and armed (see `detectors`).
    func detect(_ kind: TriggerKind, at time: Rational, isAbove: Bool) {
        let fires = detectors.withLock { state -> Bool in
            var entry = state[kind] ?? (time: time - settings.rearmAfter, isArmed: true)
            defer { state[kind] = entry }
            if !isAbove {
                entry.isArmed = true
                return false
            }
            guard entry.isArmed, time - entry.time >= settings.rearmAfter else { return false }
            entry = (time, false)
            return true
        }
        if fires { post([TriggerEvent(time: time, kind: kind)]) }
    }

    func post(_ events: [TriggerEvent]) {
        timed.withLock { $0 += events }
        firedCount.add(events.count, ordering: .relaxed)
    }

    /// The triggers posted since the last call.
    func take() -> [TriggerEvent] {
        timed.withLock { t in
            defer { t.removeAll() }
            return t
        }
    }

    /// The most bytes of raw frames a `RawTriggerRing` held (0 without one).
    public var rawRingPeakBytes: Int { rawRingPeak.load(ordering: .relaxed) }

    func noteRingBytes(_ bytes: Int) { rawRingPeak.store(bytes, ordering: .relaxed) }

    /// Clips written so far.
    public var clips: Int { clipCount.load(ordering: .relaxed) }

    func noteClip() { clipCount.add(1, ordering: .relaxed) }

    /// Triggers fired so far.
    public var fired: Int { firedCount.load(ordering: .relaxed) }

    /// The latest motion score in percent.
    public var motionScore: Double {
        get { Double(motion.load(ordering: .relaxed)) / 100 }
        set { motion.store(Int((newValue * 100).rounded()), ordering: .relaxed) }
    }
}
