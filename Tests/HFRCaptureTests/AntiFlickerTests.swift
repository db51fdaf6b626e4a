import CV4L2
import HFRMedia
import Testing

@testable import HFRCapture

/// `--exposure antiflicker`: the exposure of whole flicker periods chosen for a frame interval, and
/// what a camera's controls get (set and read back) on a scripted driver: vivid, the VM's real
/// driver, has neither power_line_frequency nor exposure_time_absolute.
@Suite struct AntiFlickerTests {
    /// exposure_time_absolute as UVC cameras have it: 100 µs units, 1…5000 in steps of 1.
    static let uvc = AntiFlicker.ExposureRange(minimum: 1, maximum: 5000, step: 1)

    /// (mains Hz, frame rate, the control's range) → (whole periods, value in 100 µs), or nil.
    @Test(
        arguments: [
            // 1/120 s holds one 60 Hz period (8.333 ms): 83 is the nearest value not above it.
            (60, Rational(120), uvc, (1, 83)),
            // 1/120 s = 8.33 ms is shorter than one 50 Hz period (10 ms): none.
            (50, Rational(120), uvc, nil),
            (50, Rational(100), uvc, (1, 100)),
            (50, Rational(60), uvc, (1, 100)),
            (50, Rational(30), uvc, (3, 300)),
            // 1/30 s holds exactly four 60 Hz periods: 333 (33.3 ms) is the nearest not above it.
            (60, Rational(30), uvc, (4, 333)),
            // Two 60 Hz periods are 16.667 ms; 167 would be longer than the frame, 166 is not.
            (60, Rational(60), uvc, (2, 166)),
            (60, Rational(60000, 1001), uvc, (2, 166)),
            (50, Rational(240), uvc, nil),
            // The control's maximum (25 ms) leaves two 50 Hz periods of the three a 30 fps frame holds.
            (50, Rational(30), AntiFlicker.ExposureRange(minimum: 1, maximum: 250, step: 1), (2, 200)),
            (50, Rational(30), AntiFlicker.ExposureRange(minimum: 1, maximum: 50, step: 1), nil),
            (50, Rational(100), AntiFlicker.ExposureRange(minimum: 150, maximum: 5000, step: 1), nil),
            // Steps of 3 ms from 0.1 ms: 9.1 ms misses 10 ms by more than a twentieth of a period,
            // 30.1 ms is within one of 30 ms.
            (50, Rational(100), AntiFlicker.ExposureRange(minimum: 1, maximum: 5000, step: 30), nil),
            (50, Rational(30), AntiFlicker.ExposureRange(minimum: 1, maximum: 5000, step: 30), (3, 301)),
        ] as [(Int, Rational, AntiFlicker.ExposureRange, (Int, Int64)?)])
    func exposureOfWholePeriods(mains: Int, rate: Rational, range: AntiFlicker.ExposureRange, expected: (Int, Int64)?) {
        let e = AntiFlicker.exposure(mains: mains, frameInterval: rate.reciprocal, range: range)
        #expect(
            e.map { [Int64($0.periods), $0.value] } == expected.map { [Int64($0.0), $0.1] }, "\(mains) Hz \(rate)")
        if let e {
            #expect(e.ideal == AntiFlicker.period(mains: mains) * Rational(Int64(e.periods)))
            #expect(e.seconds <= rate.reciprocal)
        }
    }

    @Test func periodsAreHalfAMainsCycle() {
        #expect(AntiFlicker.period(mains: 50) == Rational(1, 100))
        #expect(AntiFlicker.period(mains: 60) == Rational(1, 120))
    }

    @Test func whatIsPrintedWhenNoExposureFits() {
        let short = AntiFlicker.Choice.noExposure(
            mains: 50, isAssumed: false, range: Self.uvc, frameInterval: Rational(1, 240))
        #expect(short.method == .none && short.isWarning)
        #expect(
            short.line
                == "Warning: anti-flicker: no flicker-free exposure at 240 fps under 50 Hz light: one flicker period "
                + "(10.000 ms) is longer than a frame (4.167 ms); at most 100 fps allows one")
        let capped = AntiFlicker.Choice.noExposure(
            mains: 60, isAssumed: true, range: .init(minimum: 1, maximum: 50, step: 1), frameInterval: Rational(1, 30))
        #expect(
            capped.text.contains("exposure_time_absolute reaches only 5.0 ms, less than one flicker period (8.333 ms)"))
        #expect(capped.text.contains("assumed 60 Hz mains"))
    }

    /// A camera with power_line_frequency (UVC 1.5's menu, auto included) and exposure controls.
    static func camera(powerLine: Bool, exposure: Bool) -> ScriptedV4L2Driver {
        let driver = ScriptedV4L2Driver()
        if powerLine {
            driver.controls.append(
                .init(
                    id: HFR_V4L2_CID_POWER_LINE_FREQUENCY, name: "Power Line Frequency", type: V4L2_CTRL_TYPE_MENU,
                    minimum: 0, maximum: 3, value: 0))
        }
        if exposure {
            driver.controls += [
                .init(
                    id: HFR_V4L2_CID_EXPOSURE_AUTO, name: "Auto Exposure", type: V4L2_CTRL_TYPE_MENU, minimum: 0,
                    maximum: 3, value: 3),
                .init(
                    id: HFR_V4L2_CID_EXPOSURE_ABSOLUTE, name: "Exposure Time, Absolute", type: V4L2_CTRL_TYPE_INTEGER,
                    minimum: 3, maximum: 2047, value: 156),
            ]
        }
        return driver
    }

    static func apply(_ mains: Int?, on driver: ScriptedV4L2Driver, rate: Rational) throws -> AntiFlicker.Choice? {
        let device = try V4L2Device(path: "/dev/scripted", driver: driver)
        return try CameraControls(antiFlicker: AntiFlicker(mains: mains)).apply(
            to: device, frameInterval: rate.reciprocal
        ).antiFlicker
    }

    static func value(_ id: UInt32, on driver: ScriptedV4L2Driver) -> Int32? {
        driver.controls.first { $0.id == id }?.value
    }

    /// The control wins where the camera has one: set, read back, and the exposure left alone.
    @Test(arguments: [(50, 1, "50 Hz"), (60, 2, "60 Hz"), (nil, 3, "auto")] as [(Int?, Int32, String)])
    func powerLineFrequencyIsSetAndReadBack(mains: Int?, entry: Int32, words: String) throws {
        let driver = Self.camera(powerLine: true, exposure: true)
        let choice = try #require(try Self.apply(mains, on: driver, rate: Rational(240)))
        #expect(Self.value(HFR_V4L2_CID_POWER_LINE_FREQUENCY, on: driver) == entry)
        #expect(choice.line == "Anti-flicker: power_line_frequency set to \(words) (read back \(words))")
        #expect(choice.method == .powerLineFrequency && choice.mains == mains && !choice.isWarning)
        #expect(Self.value(HFR_V4L2_CID_EXPOSURE_AUTO, on: driver) == 3)
    }

    /// Without the control: manual exposure, the value of whole periods, read back.
    @Test func exposureIsSetToWholePeriodsAndReadBack() throws {
        let driver = Self.camera(powerLine: false, exposure: true)
        let choice = try #require(try Self.apply(60, on: driver, rate: Rational(120)))
        #expect(Self.value(HFR_V4L2_CID_EXPOSURE_AUTO, on: driver) == 1)
        #expect(Self.value(HFR_V4L2_CID_EXPOSURE_ABSOLUTE, on: driver) == 83)
        #expect(choice.method == .exposure && choice.periods == 1 && choice.exposure == Rational(83, 10_000))
        #expect(
            choice.line
                == "Anti-flicker: exposure 8.3 ms (1 flicker period of 60 Hz light is 8.333 ms: 0.033 ms shorter, "
                + "the nearest the control's 0.1 ms steps reach) at 120 fps, read back 8.3 ms")
        let fifty = try #require(
            try Self.apply(nil, on: Self.camera(powerLine: false, exposure: true), rate: Rational(60)))
        #expect(
            fifty.line
                == "Anti-flicker: exposure 10.0 ms (1 flicker period of 50 Hz light) at 60 fps, read back 10.0 ms; "
                + "assumed 50 Hz mains (antiflicker=60 under 60 Hz light)")
    }

    /// A driver that does not keep the value is a warning naming what it holds.
    @Test func anExposureTheDriverChangesIsAWarning() throws {
        let driver = Self.camera(powerLine: false, exposure: true)
        driver.keeps[HFR_V4L2_CID_EXPOSURE_ABSOLUTE] = { $0 / 10 * 10 + 5 }
        let choice = try #require(try Self.apply(50, on: driver, rate: Rational(100)))
        #expect(choice.isWarning && choice.exposure == Rational(105, 10_000))
        #expect(choice.line.hasSuffix("read back 10.5 ms: the driver did not keep it, the light may flicker"))
    }

    /// Neither control, or a frame shorter than a period: a warning, and nothing is changed.
    @Test func noFlickerFreeChoiceIsAWarning() throws {
        let bare = try #require(
            try Self.apply(50, on: Self.camera(powerLine: false, exposure: false), rate: Rational(60)))
        #expect(bare.method == .none && bare.isWarning)
        #expect(bare.text.hasPrefix("/dev/scripted has neither a power_line_frequency nor an exposure_time_absolute"))
        let driver = Self.camera(powerLine: false, exposure: true)
        let fast = try #require(try Self.apply(50, on: driver, rate: Rational(240)))
        #expect(fast.method == .none && fast.text.contains("at most 100 fps allows one"))
        #expect(Self.value(HFR_V4L2_CID_EXPOSURE_AUTO, on: driver) == 3)
        #expect(Self.value(HFR_V4L2_CID_EXPOSURE_ABSOLUTE, on: driver) == 156)
    }
}
