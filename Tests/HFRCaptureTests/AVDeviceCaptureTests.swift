import CV4L2
import HFRMedia
import Testing

@testable import HFRCapture

/// `--capture-api avdevice` refuses a mode libavdevice opened differently in the words hfr's own
/// capture uses for a driver that granted another mode.
@Suite struct AVDeviceCaptureTests {
    static let choice = ModeSelector.Choice(
        mode: V4L2Mode(format: V4L2PixelFormat("YU12"), width: 16, height: 8, intervals: [.discrete(Rational(1, 60))]),
        rate: Rational(60))

    @Test func aDifferentRateIsRefusedAsTheOwnCaptureRefusesIt() throws {
        let driver = ScriptedV4L2Driver()
        driver.grantedInterval = v4l2_fract(numerator: 1, denominator: 30)
        let own: V4L2Failure
        do {
            _ = try V4L2Capture(device: V4L2Device(path: "/dev/scripted", driver: driver), choice: Self.choice)
            Issue.record("the own capture accepted 30 fps for 60")
            return
        } catch {
            own = error
        }
        let refusal = try #require(
            AVDeviceCapture.refusal(Self.choice, granted: ("YU12", 16, 8, Rational(30)), path: "/dev/scripted"))
        #expect(refusal.isModeNotGranted && own.isModeNotGranted)
        #expect(refusal.description == own.description, "\(refusal) vs \(own)")
    }

    @Test(arguments: [
        ("NV12", 16, 8, Rational(60), "NV12 16x8 at 60 fps"), ("YU12", 32, 8, Rational(60), "YU12 32x8 at 60 fps"),
        ("YU12", 16, 8, Rational(60_000, 1001), "YU12 16x8 at 59.94 fps"),
    ])
    func anyDifferenceIsRefused(format: String, width: Int, height: Int, rate: Rational, granted: String) {
        let refusal = AVDeviceCapture.refusal(Self.choice, granted: (format, width, height, rate), path: "/dev/v")
        #expect(
            refusal?.description
                == "mode read-back on /dev/v: asked for YU12 16x8 at 60 fps, the driver granted \(granted)")
        #expect(AVDeviceCapture.refusal(Self.choice, granted: ("YU12", 16, 8, Rational(60)), path: "/dev/v") == nil)
    }

    @Test func mjpegPacketsAreTheJPEGFormatsAndUnnamedFormatsAreRefusedBeforeOpening() {
        let jpeg = ModeSelector.Choice(
            mode: V4L2Mode(format: V4L2PixelFormat("JPEG"), width: 16, height: 8, intervals: []), rate: Rational(30))
        #expect(AVDeviceCapture.refusal(jpeg, granted: ("MJPG", 16, 8, Rational(30)), path: "/dev/v") == nil)
        let nv21 = ModeSelector.Choice(
            mode: V4L2Mode(format: V4L2PixelFormat("NV21"), width: 16, height: 8, intervals: []), rate: Rational(30))
        #expect {
            _ = try AVDeviceCapture(path: "/dev/null", choice: nv21)
        } throws: { error in
            "\(error)".contains("cannot ask for NV21") && "\(error)".contains("--capture-api own")
        }
    }
}
