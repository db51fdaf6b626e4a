import HFRMedia
import Testing

/// Timecodes moved to an export's start and rate, checked against frame counts done by hand.
@Suite struct TimecodeTests {
    @Test func sameInstantAtTheOutputRate() {
        // 01:00:00 + 60 frames at 120 fps is 0.5 s past the hour: 15 frames at 30 fps.
        #expect(
            Timecode.convert("01:00:00:060", rate: Rational(120), advancedBy: Rational(0), to: Rational(30))
                == "01:00:00:15")
        #expect(
            Timecode.convert("01:00:00:00", rate: Rational(30), advancedBy: Rational(0), to: Rational(120))
                == "01:00:00:000")
    }

    @Test func advancedByTheRangeStart() {
        // 2.5 s after 10:00:00:00 at 24 fps: 2 s and 12 frames.
        #expect(
            Timecode.convert("10:00:00:00", rate: Rational(24), advancedBy: Rational(5, 2), to: Rational(24))
                == "10:00:02:12")
    }

    @Test func dropFrameStaysDropFrameAtNTSCRates() {
        // 00:01:00;02 is frame 1800 in drop-frame counting (frames 0 and 1 of minute 1 are skipped).
        let ntsc = Rational(30000, 1001)
        #expect(Timecode.convert("00:00:59;29", rate: ntsc, advancedBy: Rational(0), to: ntsc) == "00:00:59;29")
        #expect(
            Timecode.convert("00:00:59;29", rate: ntsc, advancedBy: Rational(1001, 30000), to: ntsc)
                == "00:01:00;02")
        #expect(Timecode.convert("00:00:59;29", rate: ntsc, advancedBy: Rational(0), to: Rational(30)) != nil)
    }

    @Test func refusedWhereMOVCannotCount() {
        #expect(Timecode.convert("01:00:00:00", rate: Rational(30), advancedBy: Rational(0), to: Rational(480)) == nil)
        #expect(
            Timecode.convert("not a timecode", rate: Rational(30), advancedBy: Rational(0), to: Rational(30)) == nil)
    }
}
