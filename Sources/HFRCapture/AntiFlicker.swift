import HFRMedia

/// `--exposure antiflicker[=50|60]`: keeping the flicker of mains-powered light out of the frames.
/// Lamps pulse at twice the mains frequency; a camera's power_line_frequency control makes its own
/// exposure avoid the pulses, and without one a fixed exposure of a whole number of pulse periods
/// takes in the same light in every frame. What can be chosen depends on the frame interval, so
/// the choice is made once the mode is granted (`CameraControls.apply`).
public struct AntiFlicker: Sendable, Equatable {
    /// The mains frequency in hertz, 50 or 60; nil: the camera's automatic detection where its
    /// power_line_frequency control has one, else `assumedMains`.
    public var mains: Int?

    public init(mains: Int? = nil) {
        self.mains = mains
    }

    /// What `antiflicker` without a frequency assumes when the camera cannot detect it: the mains
    /// of most of the world (the Americas say `antiflicker=60`).
    public static let assumedMains = 50

    /// The frequencies `antiflicker=HZ` takes.
    public static let frequencies = [50, 60]

    /// `exposure_time_absolute` counts 100 µs.
    static let exposureUnit = Rational(1, 10_000)

    /// One flicker period: the light pulses twice a mains cycle (10 ms at 50 Hz, 1/120 s at 60 Hz).
    public static func period(mains: Int) -> Rational { Rational(1, Int64(2 * mains)) }

    /// How the flicker is avoided.
    public enum Method: String, Sendable, Equatable {
        /// The camera's power_line_frequency control (its automatic exposure avoids the pulses).
        case powerLineFrequency = "power_line_frequency"
        /// A manual exposure of whole flicker periods.
        case exposure
        /// Neither is possible: the camera lacks the controls, or no such exposure fits a frame.
        case none
    }

    /// What was chosen, set and read back: the line printed, and `antiflicker` in `hfr record --json`.
    public struct Choice: Sendable, Equatable {
        /// The mains frequency used; nil when the camera's automatic detection was set.
        public var mains: Int?
        public var method: Method
        /// Method `exposure`: the exposure the driver reads back, in seconds.
        public var exposure: Rational?
        /// Method `exposure`: whole flicker periods in it.
        public var periods: Int?
        /// What was chosen, in words: "power_line_frequency set to 50 Hz (read back 50 Hz)".
        public var text: String
        /// Nothing avoids the flicker (or the driver did not keep the setting): printed as a warning.
        public var isWarning: Bool

        /// The line printed on stderr once the camera is set up.
        public var line: String { isWarning ? "Warning: anti-flicker: \(text)" : "Anti-flicker: \(text)" }
    }

    /// An exposure control's values: `minimum`…`maximum` in steps of `step` from `minimum`, in the
    /// control's units (100 µs).
    public struct ExposureRange: Sendable, Equatable {
        public var minimum: Int64
        public var maximum: Int64
        public var step: Int64

        public init(minimum: Int64, maximum: Int64, step: Int64) {
            self.minimum = minimum
            self.maximum = maximum
            self.step = step
        }
    }

    /// An exposure of whole flicker periods, as the control can hold it.
    public struct Exposure: Sendable, Equatable {
        /// Whole flicker periods.
        public var periods: Int
        /// The control's value (100 µs units).
        public var value: Int64
        /// `periods` flicker periods exactly, in seconds (the value may miss it by a fraction of a step).
        public var ideal: Rational

        /// The value in seconds.
        public var seconds: Rational { Rational(value) * AntiFlicker.exposureUnit }
    }

    /// The longest exposure of whole flicker periods no longer than `frameInterval` that the control
    /// can hold within a twentieth of a period (what is left of the flicker is that share of it: with
    /// 100 µs units the miss is at most 50 µs, 0.6 % of 1/120 s); nil when none exists.
    public static func exposure(mains: Int, frameInterval: Rational, range: ExposureRange) -> Exposure? {
        let period = period(mains: mains)
        let step = max(1, range.step)
        let tolerance = period / exposureUnit / Rational(20)
        var periods = floor(frameInterval / period)
        while periods >= 1 {
            let ideal = period * Rational(periods)
            let target = ideal / exposureUnit
            let below = range.minimum + floor((target - Rational(range.minimum)) / Rational(step)) * step
            let fitting = [below, below + step].filter { v in
                (range.minimum...range.maximum).contains(v) && Rational(v) * exposureUnit <= frameInterval
                    && distance(Rational(v), target) <= tolerance
            }
            if let best = fitting.min(by: { distance(Rational($0), target) < distance(Rational($1), target) }) {
                return Exposure(periods: Int(periods), value: best, ideal: ideal)
            }
            periods -= 1
        }
        return nil
    }

    /// The largest integer not above `x`.
    static func floor(_ x: Rational) -> Int64 {
        let (q, r) = x.numerator.quotientAndRemainder(dividingBy: x.denominator)
        return r < 0 ? q - 1 : q
    }

    static func distance(_ a: Rational, _ b: Rational) -> Rational { a < b ? b - a : a - b }
}
