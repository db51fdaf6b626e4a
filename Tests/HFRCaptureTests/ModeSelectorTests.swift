import CV4L2
import HFRMedia
import Testing

@testable import HFRCapture

/// A webcam shaped like vivid's: the top rate falls with the size, in every format.
private func webcam(formats: [String]) -> [V4L2Mode] {
    let sizes: [(Int, Int, [Rational])] = [
        (320, 180, [Rational(1, 60), Rational(1, 50), Rational(1, 30), Rational(1, 25)]),
        (640, 360, [Rational(1, 30), Rational(1, 25)]),
        (640, 480, [Rational(1, 25), Rational(1, 15)]),
        (1280, 720, [Rational(2, 25), Rational(1, 10)]),
    ]
    return formats.flatMap { f in
        sizes.map { w, h, intervals in
            V4L2Mode(format: V4L2PixelFormat(f), width: w, height: h, intervals: intervals.map { .discrete($0) })
        }
    }
}

@Suite struct ModeSelectorTests {
    let selector = ModeSelector(modes: webcam(formats: ["YUYV", "MJPG", "YU12", "NV12", "RGB3"]))

    @Test func maxTakesTheHighestRateInYU12() throws {
        let choice = try selector.select(.init(rate: nil))
        #expect(choice.rate == Rational(60))
        #expect(choice.mode.format.fourCC == "YU12")
        #expect(choice.mode.width == 320 && choice.mode.height == 180)
    }

    @Test(arguments: [
        (["YUYV", "YU12"], "YU12"), (["NV12", "YUYV"], "NV12"), (["MJPG", "YUYV"], "YUYV"), (["RGB3", "MJPG"], "MJPG"),
        (["RGB3"], "RGB3"),
    ])
    func formatPreferenceBreaksTies(formats: [String], expected: String) throws {
        let choice = try ModeSelector(modes: webcam(formats: formats)).select(.init(rate: nil))
        #expect(choice.mode.format.fourCC == expected)
    }

    @Test func aHigherRateBeatsAPreferredFormat() throws {
        var modes = webcam(formats: ["YU12"])
        modes.append(
            V4L2Mode(format: V4L2PixelFormat("MJPG"), width: 320, height: 180, intervals: [.discrete(Rational(1, 90))]))
        let choice = try ModeSelector(modes: modes).select(.init(rate: nil))
        #expect(choice.mode.format.fourCC == "MJPG" && choice.rate == Rational(90))
    }

    @Test func fixedRateTakesTheLargestSizeReachingIt() throws {
        let choice = try selector.select(.init(rate: Rational(25)))
        #expect(choice.mode.width == 640 && choice.mode.height == 480)
        #expect(choice.mode.format.fourCC == "YU12")
        #expect(choice.rate == Rational(25))
    }

    @Test func ratesAreExact() throws {
        // 12.5 fps is 2/25 s; 60000/1001 is not offered, 60 is.
        #expect(try selector.select(.init(rate: Rational(25, 2))).mode.width == 1280)
        #expect(throws: ModeSelector.Failure.self) { try selector.select(.init(rate: Rational(60000, 1001))) }
    }

    @Test func sizeThatCannotReachTheRateIsRefusedWithAlternatives() {
        do {
            _ = try selector.select(.init(rate: Rational(30), size: (640, 480)))
            Issue.record("640x480 at 30 fps was accepted")
        } catch {
            #expect(error.description.contains("640x480 reaches 25 fps at most"))
            #expect(error.description.contains("30 fps is offered at 320x180, 640x360 (YU12)"))
        }
    }

    @Test func unknownSizeAndFormatNameWhatExists() {
        let size = #expect(throws: ModeSelector.Failure.self) {
            try selector.select(.init(rate: nil, size: (800, 600)))
        }
        #expect(size?.description.contains("800x600") == true, "\(String(describing: size))")
        #expect(size?.description.contains("640x480") == true, "the sizes that exist are named")
        let format = #expect(throws: ModeSelector.Failure.self) {
            try selector.select(.init(rate: nil, format: V4L2PixelFormat("NV21")))
        }
        #expect(format?.description.contains("no NV21 mode") == true, "\(String(describing: format))")
        #expect(format?.description.contains("YU12") == true)
    }

    @Test func formatConstraintIsHonoured() throws {
        let choice = try selector.select(.init(rate: nil, format: V4L2PixelFormat("YUYV")))
        #expect(choice.mode.format.fourCC == "YUYV" && choice.rate == Rational(60))
    }

    @Test func stepwiseIntervalsOfferOnlyTheirSteps() {
        let i = V4L2FrameInterval.stepwise(min: Rational(1, 120), max: Rational(1, 1), step: Rational(1, 120))
        #expect(i.offers(Rational(120)))
        #expect(i.offers(Rational(60)))
        #expect(!i.offers(Rational(50)))
        #expect(i.maxRate == Rational(120))
        #expect(V4L2FrameInterval.continuous(min: Rational(1, 60), max: Rational(1)).offers(Rational(60000, 1001)))
    }

    @Test func pixelClockRatesReadAsTheRatesTheyStandFor() {
        // vivid's 1280x720 HDMI timings at 1000/1001: 74175824 Hz over 1650×750 pixels.
        #expect(V4L2FrameInterval.interval(numerator: 12375, denominator: 741_758) == Rational(1001, 60000))
        #expect(V4L2FrameInterval.interval(numerator: 1001, denominator: 30000) == Rational(1001, 30000))
        #expect(V4L2FrameInterval.interval(numerator: 2, denominator: 25) == Rational(2, 25))
        #expect(
            V4L2FrameInterval.interval(numerator: 1_000_000, denominator: 59_999_999) == Rational(1, 60))
        // 59.9 fps is neither.
        #expect(V4L2FrameInterval.interval(numerator: 10, denominator: 599) == Rational(10, 599))
    }

    @Test func rateText() {
        #expect(ModeSelector.rateText(Rational(60)) == "60")
        #expect(ModeSelector.rateText(Rational(25, 2)) == "12.5")
        #expect(ModeSelector.rateText(Rational(60000, 1001)) == "59.94")
    }
}

/// A stepwise or continuous range of sizes (vivid's HDMI input goes up to 16384x8640) is tried at
/// the preset sizes inside it, with the intervals the driver gives at each.
@Suite struct StepwisePresetTests {
    static let hdmiRange = V4L2FrameSize.stepwise(
        minWidth: 16, maxWidth: 16384, stepWidth: 2, minHeight: 16, maxHeight: 8640, stepHeight: 2)

    /// One format with `size`, whose intervals at the largest size are `atLargest`.
    static func format(_ size: V4L2FrameSize, atLargest: [Rational], fourCC: String = "YUYV") -> V4L2FormatModes {
        V4L2FormatModes(
            format: V4L2PixelFormat(fourCC), name: fourCC, isCompressed: false,
            sizes: [(size, atLargest.map { .discrete($0.reciprocal) })])
    }

    static func sizes(_ modes: [V4L2Mode]) -> [String] { modes.map { "\($0.width)x\($0.height)" } }

    @Test func aRangeWithTheSameRateEverywhereTakesTheLargestPreset() throws {
        // vivid's HDMI input: one interval (its timings' rate) at every size.
        var asked: [String] = []
        let modes = Self.format(Self.hdmiRange, atLargest: [Rational(60)]).modes { w, h in
            asked.append("\(w)x\(h)")
            return [.discrete(Rational(1, 60))]
        }
        #expect(!Self.sizes(modes).contains("16384x8640"), "the range's largest size is not offered")
        #expect(Set(asked) == Set(V4L2FormatModes.presetSizes.map { "\($0.width)x\($0.height)" }))
        let choice = try ModeSelector(modes: modes).select(.init(rate: nil))
        #expect(choice.mode.width == 3840 && choice.mode.height == 2160 && choice.rate == Rational(60))
    }

    @Test func maxTakesTheLargestPresetReachingTheTopRate() throws {
        // The rate falls with the size, as a sensor's readout does: 60 up to 720 lines, 30 above.
        let modes = Self.format(Self.hdmiRange, atLargest: [Rational(15)]).modes { _, h in
            [.discrete(Rational(1, h <= 720 ? 60 : 30))]
        }
        let best = try ModeSelector(modes: modes).select(.init(rate: nil))
        #expect(best.mode.width == 1280 && best.mode.height == 720 && best.rate == Rational(60))
        let thirty = try ModeSelector(modes: modes).select(.init(rate: Rational(30)))
        #expect(thirty.mode.width == 3840 && thirty.mode.height == 2160)
    }

    @Test func onlyPresetsInsideTheRangeAndOnItsStepsAreTried() throws {
        let small = V4L2FrameSize.continuous(minWidth: 160, maxWidth: 1600, minHeight: 120, maxHeight: 1200)
        let modes = Self.format(small, atLargest: [Rational(60)]).modes { _, _ in [.discrete(Rational(1, 60))] }
        #expect(Self.sizes(modes) == ["1280x720", "854x480", "1440x1080", "960x720", "640x480"])
        // Steps of 16 from 16: 1080 lines and 854 columns are not on them (1920x1080 is not a size of it).
        let coarse = V4L2FrameSize.stepwise(
            minWidth: 16, maxWidth: 4096, stepWidth: 16, minHeight: 16, maxHeight: 2160, stepHeight: 16)
        let onSteps = Self.format(coarse, atLargest: [Rational(30)]).modes { _, _ in nil }
        #expect(Self.sizes(onSteps) == ["3840x2160", "1280x720", "2880x2160", "960x720", "640x480"])
        #expect(onSteps.allSatisfy { $0.maxRate == Rational(30) }, "no answer: the largest size's rates")
    }

    @Test func theLargestSizeIsOfferedWhenNoPresetFitsOrWhenAskedFor() throws {
        let tiny = V4L2FrameSize.stepwise(
            minWidth: 16, maxWidth: 320, stepWidth: 2, minHeight: 16, maxHeight: 240, stepHeight: 2)
        let modes = Self.format(tiny, atLargest: [Rational(90)]).modes { _, _ in [.discrete(Rational(1, 90))] }
        #expect(Self.sizes(modes) == ["320x240"])
        let asked = Self.format(Self.hdmiRange, atLargest: [Rational(60)])
            .modes(including: [(16384, 8640), (800, 600)]) { _, _ in [.discrete(Rational(1, 60))] }
        let choice = try ModeSelector(modes: asked).select(.init(rate: nil, size: (800, 600)))
        #expect(choice.mode.width == 800 && choice.mode.height == 600)
        #expect(Self.sizes(asked).contains("16384x8640") && Self.sizes(asked).contains("3840x2160"))
    }

    @Test func discreteSizesAreLeftAsTheyAre() {
        let modes = Self.format(.discrete(width: 640, height: 480), atLargest: [Rational(30)]).modes { _, _ in
            Issue.record("no interval lookup for discrete sizes")
            return nil
        }
        #expect(Self.sizes(modes) == ["640x480"])
    }
}
