import HFRMedia

/// Places a camera's frames on the frame-rate grid from what the driver says about each buffer —
/// its `sequence` number and capture timestamp — and counts the frames the driver dropped.
///
/// When the driver numbers its frames, the sequence number decides: a gap of n is n dropped frames
/// and n empty slots in the file, and a wrapping counter (0xFFFFFFFF → 0) is one step. Timestamps
/// that disagree by more than a frame (a clock that wraps or jumps backwards) are counted as
/// discontinuities but move nothing, so there are no false drops and pts stay monotonic. Drivers
/// that leave `sequence` at 0 are placed by timestamp: the nearest slot of a grid whose phase
/// follows the camera's clock slowly, so jitter under half an interval is absorbed. A buffer that
/// repeats the previous sequence number (seen from vivid under emulation) gets no slot.
public struct FrameTimeline: Sendable {
    /// Seconds per frame.
    public let interval: Rational

    /// The grid position of the last frame (0 = the first).
    public private(set) var lastIndex: Int64 = -1
    /// Frames missing from the sequence numbers (the driver's own count of what it dropped).
    public private(set) var sequenceGaps = 0
    /// Slots left empty on the grid (what the file shows as gaps).
    public private(set) var gridGaps = 0
    /// Timestamps that could not be trusted (backwards, or a jump the sequence does not explain).
    public private(set) var timestampDiscontinuities = 0
    /// Buffers that repeated the previous sequence number and were left out.
    public private(set) var repeats = 0
    /// Set once consecutive buffers carry different sequence numbers.
    public private(set) var numbersFrames = false

    private var lastSequence: UInt32?
    private var lastTimestamp: Int64?
    /// Timestamp of grid slot 0, and how far (in frames) the camera's clock runs off the grid.
    private var origin: Int64 = 0
    private var phase = 0.0

    /// The interval in microseconds, and frames per second: for the per-frame arithmetic.
    private let frameMicros: Double
    private let rate: Double

    public init(interval: Rational) {
        self.interval = interval
        frameMicros = (interval * Rational(1_000_000)).doubleValue
        rate = interval.reciprocal.doubleValue
    }

    /// The grid index of a frame with `sequence` captured at `timestamp` microseconds; nil for a
    /// repeated sequence number.
    public mutating func place(sequence: UInt32, timestamp: Int64) -> Int64? {
        defer {
            lastSequence = sequence
            lastTimestamp = timestamp
        }
        guard let previousSequence = lastSequence, let previousTimestamp = lastTimestamp else {
            origin = timestamp
            lastIndex = 0
            return 0
        }
        // Wrapping subtraction: 0xFFFFFFFF → 0 is one step.
        let sequenceStep = Int64(sequence &- previousSequence)
        if numbersFrames, sequenceStep == 0 {
            repeats += 1
            return nil
        }
        let hasSequence = sequenceStep != 0 && sequenceStep < 1 << 31
        let timestampStep = (Double(timestamp - previousTimestamp) / frameMicros).rounded()
        var step: Int64
        if hasSequence {
            numbersFrames = true
            sequenceGaps += Int(sequenceStep - 1)
            step = sequenceStep
            // Jitter is not a discontinuity (under emulation frames arrive 2–35 ms apart at 60 fps);
            // a clock that goes backwards or leaps a second beyond the sequence is.
            if timestamp < previousTimestamp || timestampStep > Double(sequenceStep) + rate {
                timestampDiscontinuities += 1
            }
        } else {
            let position = Double(timestamp - origin) / frameMicros
            step = Int64((position - phase).rounded()) - lastIndex
            if step < 1 || step > Int64(max(timestampStep, 1)) + 1 {
                // Backwards, repeated, or a jump: the next slot, and the grid starts again here.
                if timestampStep < 1 { timestampDiscontinuities += 1 }
                step = max(1, Int64(timestampStep))
                origin = timestamp - Int64(Double(lastIndex + step) * frameMicros)
                phase = 0
            } else {
                phase += 0.05 * (position - Double(lastIndex + step) - phase)
            }
        }
        gridGaps += Int(step - 1)
        lastIndex += step
        return lastIndex
    }

    /// Frames the driver dropped: its sequence gaps when it numbers frames, else the grid's gaps.
    public var dropped: Int { numbersFrames ? sequenceGaps : gridGaps }
}
