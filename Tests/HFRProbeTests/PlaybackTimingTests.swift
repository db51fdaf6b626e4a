import HFRMedia
import Testing

@testable import HFRProbe

/// Which streams play slower than they were captured, and by how much.
@Suite struct PlaybackTimingTests {
    @Test func retimedWhenCaptureAndPlaybackRatesDifferByOneAndAHalfTimes() {
        #expect(PlaybackTiming.retimedScale(capture: Rational(120), playback: Rational(30)) == Rational(1, 4))
        #expect(PlaybackTiming.retimedScale(capture: Rational(240), playback: Rational(120)) == Rational(1, 2))
        #expect(PlaybackTiming.retimedScale(capture: Rational(90), playback: Rational(60)) == Rational(2, 3))
        #expect(
            PlaybackTiming.retimedScale(capture: Rational(120), playback: Rational(30_000, 1001))
                == Rational(30_000, 120_120))
        // Real-time footage: the tag at (or near) the stream's own rate, or a dropping camera.
        #expect(PlaybackTiming.retimedScale(capture: Rational(120), playback: Rational(120)) == nil)
        #expect(PlaybackTiming.retimedScale(capture: Rational(120), playback: Rational(81)) == nil)
        #expect(PlaybackTiming.retimedScale(capture: Rational(50), playback: Rational(60)) == nil)
        // Time-lapse: one frame a second captured, played at 30.
        #expect(PlaybackTiming.retimedScale(capture: Rational(1), playback: Rational(30)) == Rational(30))
        #expect(PlaybackTiming.retimedScale(capture: Rational(30), playback: Rational(60)) == Rational(2))
    }

    @Test func hfrExportsSayTheirSpeed() {
        let tags = ["com.hfr.export.speed": "0-@1/4"]
        #expect(PlaybackTiming.constantExportSpeed(tags: tags, streamTags: [:]) == Rational(1, 4))
        #expect(
            PlaybackTiming.constantExportSpeed(tags: [:], streamTags: ["COM.HFR.EXPORT.SPEED": "0-@1"]) == Rational(1))
        // A ramp is not one speed; nonsense is no speed.
        #expect(
            PlaybackTiming.constantExportSpeed(tags: ["com.hfr.export.speed": "0-2@1,2-@1/4"], streamTags: [:]) == nil)
        #expect(PlaybackTiming.constantExportSpeed(tags: ["com.hfr.export.speed": "0-@0"], streamTags: [:]) == nil)
        #expect(PlaybackTiming.constantExportSpeed(tags: ["com.hfr.export.speed": "0-@x"], streamTags: [:]) == nil)
    }

    /// Android's float32 tag as FFmpeg prints it stands for the exact rate it was made from.
    @Test func androidFloatTagsReadBackExactly() {
        func read(_ text: String) -> Rational? {
            Prober.declaredCaptureRate(tags: ["com.android.capture.fps": text], streamTags: [:])?.0
        }
        #expect(read("120.000000") == Rational(120))
        #expect(read("119.880119") == Rational(120_000, 1001))
        #expect(read("29.969999") == Rational(2997, 100))
        #expect(read("239.999985") == Rational(240))
        #expect(read("60") == Rational(60))
        // hfr's exact key is taken as written.
        #expect(
            Prober.declaredCaptureRate(tags: ["com.hfr.capture.fps": "119880119/1000000"], streamTags: [:])?.0
                == Rational(119_880_119, 1_000_000))
    }
}
