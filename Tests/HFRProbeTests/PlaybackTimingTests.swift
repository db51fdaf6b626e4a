import HFRMedia
import Testing

@testable import HFRProbe

/// Which streams play slower than they were captured, and by how much.
@Suite struct PlaybackTimingTests {
    @Test func slowedWhenTheCaptureRateIsAtLeastOneAndAHalfTimesThePlaybackRate() {
        #expect(PlaybackTiming.slowedScale(capture: Rational(120), playback: Rational(30)) == Rational(1, 4))
        #expect(PlaybackTiming.slowedScale(capture: Rational(240), playback: Rational(120)) == Rational(1, 2))
        #expect(PlaybackTiming.slowedScale(capture: Rational(90), playback: Rational(60)) == Rational(2, 3))
        #expect(
            PlaybackTiming.slowedScale(capture: Rational(120), playback: Rational(30_000, 1001))
                == Rational(30_000, 120_120))
        // Real-time footage: the tag at (or near) the stream's own rate, or a dropping camera.
        #expect(PlaybackTiming.slowedScale(capture: Rational(120), playback: Rational(120)) == nil)
        #expect(PlaybackTiming.slowedScale(capture: Rational(120), playback: Rational(81)) == nil)
        #expect(PlaybackTiming.slowedScale(capture: Rational(30), playback: Rational(60)) == nil)
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
}
