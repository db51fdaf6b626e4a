import HFRMedia

/// The choices `CameraControls.apply` makes for `--exposure antiflicker`, in the words printed.
extension AntiFlicker.Choice {
    /// The power_line_frequency control set to menu entry `set` (1 50 Hz, 2 60 Hz, 3 auto) and read back.
    static func powerLine(mains: Int?, set: Int64, readBack: Int64) -> Self {
        var text = "power_line_frequency set to \(entry(set)) (read back \(entry(readBack)))"
        if mains == nil, set != 3 {
            text +=
                "; assumed \(AntiFlicker.assumedMains) Hz mains, as the camera cannot detect it "
                + "(antiflicker=60 under 60 Hz light)"
        }
        let used: Int? = set == 3 ? nil : (set == 2 ? 60 : 50)
        return Self(
            mains: used, method: .powerLineFrequency, exposure: nil, periods: nil, text: text,
            isWarning: readBack != set)
    }

    /// A manual exposure of whole flicker periods, set and read back (`readBack` in 100 µs units).
    static func exposure(
        _ e: AntiFlicker.Exposure, mains: Int, isAssumed: Bool, range: AntiFlicker.ExposureRange,
        frameInterval: Rational, readBack: Int64
    ) -> Self {
        let periods = "\(e.periods) flicker period\(e.periods == 1 ? "" : "s") of \(mains) Hz light"
        var text = "exposure \(ms(e.seconds, 1)) ms (\(periods)"
        if e.seconds != e.ideal {
            let miss = AntiFlicker.distance(e.seconds, e.ideal)
            text +=
                " is \(ms(e.ideal, 3)) ms: \(ms(miss, 3)) ms \(e.seconds < e.ideal ? "shorter" : "longer"), "
                + "the nearest the control's \(ms(Rational(max(1, range.step)) * AntiFlicker.exposureUnit, 1)) ms "
                + "steps reach"
        }
        let read = Rational(readBack) * AntiFlicker.exposureUnit
        text += ") at \(rate(frameInterval)) fps, read back \(ms(read, 1)) ms"
        if readBack != e.value { text += ": the driver did not keep it, the light may flicker" }
        if isAssumed { text += "; assumed \(mains) Hz mains (antiflicker=60 under 60 Hz light)" }
        return Self(
            mains: mains, method: .exposure, exposure: read, periods: e.periods, text: text,
            isWarning: readBack != e.value)
    }

    /// No exposure of whole periods fits: the frame is shorter than a period, the control's range
    /// ends below one, or its steps miss every multiple. Says what would allow one.
    static func noExposure(
        mains: Int, isAssumed: Bool, range: AntiFlicker.ExposureRange, frameInterval: Rational
    ) -> Self {
        let period = AntiFlicker.period(mains: mains)
        let light = "\(mains) Hz light"
        var text: String
        if frameInterval < period {
            text =
                "no flicker-free exposure at \(rate(frameInterval)) fps under \(light): one flicker period "
                + "(\(ms(period, 3)) ms) is longer than a frame (\(ms(frameInterval, 3)) ms); "
                + "at most \(rate(period)) fps allows one"
        } else if Rational(range.maximum) * AntiFlicker.exposureUnit < period {
            text =
                "no flicker-free exposure under \(light): exposure_time_absolute reaches only "
                + "\(ms(Rational(range.maximum) * AntiFlicker.exposureUnit, 1)) ms, less than one flicker period "
                + "(\(ms(period, 3)) ms)"
        } else {
            text =
                "no flicker-free exposure at \(rate(frameInterval)) fps under \(light): exposure_time_absolute's "
                + "values (\(range.minimum)…\(range.maximum) in steps of \(range.step), 100 µs units) miss every "
                + "whole number of flicker periods (\(ms(period, 3)) ms) up to a frame (\(ms(frameInterval, 3)) ms)"
        }
        if isAssumed { text += " (assumed \(mains) Hz mains; antiflicker=60 under 60 Hz light)" }
        return Self(mains: mains, method: .none, exposure: nil, periods: nil, text: text, isWarning: true)
    }

    /// A camera with neither control: nothing at capture avoids the flicker.
    static func noControl(path: String, mains: Int?) -> Self {
        Self(
            mains: mains ?? AntiFlicker.assumedMains, method: .none, exposure: nil, periods: nil,
            text:
                "\(path) has neither a power_line_frequency nor an exposure_time_absolute control: "
                + "nothing at capture avoids the flicker of mains-lit scenes",
            isWarning: true)
    }

    /// A power_line_frequency menu entry in words.
    static func entry(_ value: Int64) -> String {
        switch value {
        case 0: "disabled"
        case 1: "50 Hz"
        case 2: "60 Hz"
        case 3: "auto"
        default: "entry \(value)"
        }
    }

    /// Seconds as milliseconds with `digits` decimals.
    static func ms(_ seconds: Rational, _ digits: Int) -> String {
        DecimalText.fixed(seconds * Rational(1000), digits: digits)
    }

    /// The frame rate of an interval, as modes are named ("120", "59.94").
    static func rate(_ interval: Rational) -> String { ModeSelector.rateText(interval.reciprocal) }
}
