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

    /// The fault for a presentation time some earlier frame already has, at `frame` (from 1).
    static func presentedTwice(atFrame frame: Int) -> String {
        "corrupt timestamps: two frames are presented at the same time (frame \(frame))"
    }

    /// Presentation times seen so far (8 bytes a frame: 3.5 MB for an hour at 120 fps), each new
    /// one checked against all of them: with B-frames they come out of order.
    struct Presentation {
        private var seen = Set<Int64>()
        private var frame = 0
        private var earliest: Int64 = .max
        private var latest: Int64 = .min

        mutating func check(_ pts: Int64?) throws(ExportFailure) {
            frame += 1
            guard let pts else { return }
            if !seen.insert(pts).inserted { throw .badInput(TimestampCheck.presentedTwice(atFrame: frame)) }
            (earliest, latest) = (min(earliest, pts), max(latest, pts))
        }

        /// Refuses the frames seen when their times (in `timeBase`) span no sane frame rate, the
        /// last one lasting their mean period.
        func checkRate(timeBase: Rational) throws(ExportFailure) {
            let frames = Int64(seen.count)
            guard frames > 1 else { return }
            let span = Rational.seconds(latest, in: timeBase) - Rational.seconds(earliest, in: timeBase)
            try TimestampCheck.rate(frames: seen.count, in: span * Rational(frames, frames - 1))
        }
    }

    /// Refuses video and audio whose lengths differ beyond any real file's (16× and 10 s): one of
    /// the two time bases or sample tables is damaged, and following it would mean stretching or
    /// padding hours of sound that is not there.
    static func lengthsAgree(video: Rational, audio: Rational?) throws(ExportFailure) {
        guard let audio, audio > Rational(0), video > Rational(0) else { return }
        let (short, long) =
            video < audio ? (video.doubleValue, audio.doubleValue) : (audio.doubleValue, video.doubleValue)
        guard long > 16 * short + 10 else { return }
        throw .badInput(
            "corrupt timestamps: the video lasts \(DecimalText.fixed(video.doubleValue, digits: 3)) s but the audio "
                + "\(DecimalText.fixed(audio.doubleValue, digits: 3)) s")
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

    /// Refuses a video time base of more than a second a tick: no container writes one (an MP4
    /// timescale counts ticks a second; a Matroska TimestampScale of 10⁹ ns is a second), and times
    /// counted in it are damaged (a TimestampScale of 2³² ns spreads a second of 60 fps over 70
    /// minutes, and the audio stretched to match would take hours to write).
    static func timeBase(_ timeBase: Rational) throws(ExportFailure) {
        guard timeBase > Rational(1) else { return }
        let seconds = DecimalText.fixed(timeBase.doubleValue, digits: 3)
        throw .badInput("corrupt timestamps: the video's clock ticks every \(seconds) s (at most 1 s)")
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
