import HFRMedia

/// The grid of a constant frame rate that a coarse time base can only round onto: Matroska's
/// milliseconds hold 120 fps as 0, 8, 17, 25 ms. Scaled as they are, a 4× conform would show
/// frames 32 and 36 ms apart; put back on the grid (each time within one tick of it), they are
/// 33⅓ ms apart, as captured. Only where the time base cannot hold the grid itself, and only where
/// a tick is small against the period (a time off the grid by more than a tick keeps its own).
struct Cadence: Sendable, Equatable {
    /// Stream seconds per frame.
    let period: Rational
    /// One tick of the source time base.
    let tolerance: Rational

    /// The cadence of frames `period` apart stamped in `timeBase` ticks, when that needs one.
    init?(period: Rational, timeBase: Rational) {
        guard period > Rational(0), timeBase > Rational(0), !(period / timeBase).isInteger,
            timeBase * Rational(4) < period
        else { return nil }
        self.period = period
        tolerance = timeBase
    }

    /// `t` (seconds from the first frame) on the grid when it is within a tick of it, else as it is.
    func snap(_ t: Rational) -> Rational {
        let onGrid = (t / period).rounded().rational * period
        return abs((onGrid - t).doubleValue) <= tolerance.doubleValue ? onGrid : t
    }

    /// A frame duration of about whole periods, as whole periods (a zero or unknown one stays).
    func snapDuration(_ d: Rational) -> Rational {
        let periods = (d / period).rounded().rational
        return periods > Rational(0) && abs((periods * period - d).doubleValue) <= tolerance.doubleValue
            ? periods * period : d
    }
}

extension InputAnalysis {
    /// The grid the video's frame times are put back on (`Cadence`): evenly spaced frames, or
    /// frames left out of a constant rate; nil when their times are kept as they are.
    var frameCadence: Cadence? {
        guard isEvenlySpaced || isOnGrid else { return nil }
        return Cadence(period: (captureRate * streamScale).reciprocal, timeBase: video.timeBase)
    }
}

extension ExportPlan {
    /// Seconds from `origin` of a frame stamped `ticks` in `timeBase`, put back on the cadence.
    func time(_ ticks: Int64, in timeBase: Rational, origin: Rational) -> Rational {
        let t = Rational.seconds(ticks, in: timeBase) - origin
        return cadence?.snap(t) ?? t
    }
}
