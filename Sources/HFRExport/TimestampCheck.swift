import HFRMedia

/// What timestamps must say before anything is written: decode times strictly increasing, and a
/// frame rate between 1/1000 and 10,000 fps (outside, the sample table or time base is damaged:
/// an `stts` delta of 0 or 2³²−1, a flipped `mdhd` version).
enum TimestampCheck {
    static let rates = Rational(1, 1000)...Rational(10_000)

    /// The fault for a decode time equal to the one before, at `frame` (counted from 1).
    static func repeated(atFrame frame: Int) -> String {
        "corrupt timestamps: timestamps repeat at frame \(frame)"
    }

    /// The fault for a decode time before the one before, at `frame` (counted from 1).
    static func runsBackwards(atFrame frame: Int) -> String {
        "corrupt timestamps: timestamps run backwards at frame \(frame)"
    }

    /// Decode times in the order they come, each checked against the one before.
    struct Order {
        /// Raw streams timed by `InputTiming` carry presentation times as decode times.
        let allowsBackwards: Bool
        private var last: Int64?
        private var frame = 0

        init(allowsBackwards: Bool) { self.allowsBackwards = allowsBackwards }

        mutating func check(_ dts: Int64?) throws(ExportFailure) {
            frame += 1
            guard let dts else { return }
            defer { last = dts }
            guard let last else { return }
            if dts == last { throw .badInput(TimestampCheck.repeated(atFrame: frame)) }
            if dts < last, !allowsBackwards { throw .badInput(TimestampCheck.runsBackwards(atFrame: frame)) }
        }
    }

    /// Refuses `frames` frames lasting `duration` seconds when that is no sane frame rate.
    static func rate(frames: Int, in duration: Rational) throws(ExportFailure) {
        guard frames > 1 else { return }
        guard duration > Rational(0) else {
            throw .badInput("corrupt timestamps: \(frames) frames in 0 s")
        }
        // In doubles: a damaged time base (2³¹ ticks a second) overflows exact arithmetic.
        let rate = Double(frames) / duration.doubleValue
        guard rate >= rates.lowerBound.doubleValue, rate <= rates.upperBound.doubleValue else {
            let fps = DecimalText.fixed(rate, digits: 3)
            let seconds = DecimalText.fixed(duration.doubleValue, digits: 6)
            throw .badInput(
                "corrupt timestamps: \(frames) frames in \(seconds) s is \(fps) fps, not between 1/1000 and 10000 fps")
        }
    }
}
