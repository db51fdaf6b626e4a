import HFRMedia

/// A triggered recording with `--buffer ram`, as high-speed cameras save: the pre-trigger ring
/// holds the camera's raw frames (not encoded ones), so nothing is encoded until a trigger, and
/// an encoder slower than the camera loses no frame of a clip that fits in RAM. Between the
/// capture and the encoder, on a thread of its own: each frame is scored for the motion trigger,
/// the triggers make windows `[t − pre, t + post]`, frames inside a window go on to the encoder
/// (in order; the encoder's RAM queue holds what it has not reached), frames outside every window
/// are let go once they are older than the pre-trigger time. The triggers go on to the clip stage
/// (`forwarded`), which cuts the same windows from what the encoder makes; the encoder starts
/// each run of frames after a gap with a key frame (`VideoEncodeStage.keyframeAfterGaps`).
public final class RawTriggerRing {
    private let board: TriggerBoard
    /// The triggers, for the clip stage, once this stage has taken them.
    private let forwarded: Locked<[TriggerEvent]>
    private let timeBase: Rational
    private let pre: Rational
    private let post: Rational
    /// How long past the pre-trigger time a frame waits for a trigger that arrives late (the
    /// audio trigger is stamped by the audio stage, a little behind the pictures).
    static let lateTriggerMargin = Rational(1, 4)
    private var detector: MotionDetector?
    /// Frames from `head` on, in time order (a slot is emptied when its frame goes on).
    private var ring: [(frame: Frame, time: Rational)?] = []
    private var head = 0
    /// Windows asked for, in time order, none overlapping.
    private var windows: [(start: Rational, end: Rational)] = []
    /// Frames the ring let go without encoding them; the bytes of frames it holds, and the most.
    private(set) var discarded = 0
    private var heldBytes = 0
    private var peakBytes = 0

    init(
        board: TriggerBoard, inputTimeBase: Rational, motion: MotionDetector?, forwarded: Locked<[TriggerEvent]>
    ) {
        self.board = board
        self.forwarded = forwarded
        timeBase = inputTimeBase
        pre = board.settings.preTrigger
        post = board.settings.postTrigger
        detector = motion
    }

    /// Frames the ring holds at most: the pre-trigger time and the margin, at `rate`.
    public static func capacity(pre: Rational, rate: Rational) -> Int {
        Int(((pre + lateTriggerMargin) * rate).rounded()) + 2
    }

    /// Moves frames from the capture to the encoder until the capture ends (or the encoder is gone).
    func run(from input: BoundedQueue<Frame>, to output: BoundedQueue<Frame>) {
        defer { output.finish() }
        while let frame = input.pop() {
            let time = Rational.seconds(frame.pts ?? 0, in: timeBase)
            if let score = detector?.score(frame) {
                board.motionScore = score
                board.detect(.motion, at: time, isAbove: score >= board.settings.motionThreshold)
            }
            take(board.take())
            ring.append((frame, time))
            heldBytes += frame.byteCount
            if heldBytes > peakBytes {
                peakBytes = heldBytes
                board.noteRingBytes(heldBytes)
            }
            guard release(now: time, to: output) else {
                input.cancel()
                return
            }
        }
        take(board.take())
        _ = release(now: nil, to: output)
    }

    /// Joins the triggers' windows to the ones asked for, and hands the triggers on.
    private func take(_ events: [TriggerEvent]) {
        guard !events.isEmpty else { return }
        forwarded.withLock { $0 += events }
        for event in events {
            windows.append((max(Rational(0), event.time - pre), event.time + post))
        }
        windows.sort { $0.start < $1.start }
        var merged: [(start: Rational, end: Rational)] = []
        for w in windows {
            if let last = merged.last, w.start <= last.end {
                merged[merged.count - 1].end = max(last.end, w.end)
            } else {
                merged.append(w)
            }
        }
        windows = merged
    }

    /// Sends the frames a window holds to the encoder and lets go of those no window can want,
    /// oldest first; `now` nil: the capture has ended, so every frame is decided. False when the
    /// encoder has gone.
    private func release(now: Rational?, to output: BoundedQueue<Frame>) -> Bool {
        while head < ring.count, let (frame, time) = ring[head] {
            while let first = windows.first, first.end <= time { windows.removeFirst() }
            if let first = windows.first, first.start <= time {
                if output.push(frame) == .cancelled { return false }
            } else if let now, time >= now - pre - Self.lateTriggerMargin {
                break  // a trigger may still want it
            } else {
                discarded += 1
            }
            heldBytes -= frame.byteCount
            ring[head] = nil
            head += 1
        }
        if head > 256, head * 2 > ring.count {
            ring.removeFirst(head)
            head = 0
        }
        return true
    }
}
