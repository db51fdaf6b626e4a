import HFRMedia
import Testing

@testable import HFRExport

/// A failure names the stage that ran (issue 41 item 11: a spectral export of a track with no sample
/// rate failed with "varispeed: swr_init: Invalid argument", the encoder's change of rate being a
/// resampler, which named itself after the varispeed mode).
@Suite struct AudioStageNameTests {
    @Test func theEncodersRateChangeIsNotVarispeed() {
        #expect {
            _ = try AudioEncoderSink(codec: "aac", sampleRate: 0, channels: 1)
        } throws: { error in
            let text = (error as? ExportFailure)?.cause ?? "\(error)"
            return text.contains("resampling 0 Hz to the") && text.contains("aac encoder")
                && !text.contains("varispeed")
        }
    }

    @Test func varispeedSaysSo() {
        #expect {
            _ = try VarispeedStretcher(speed: Rational(1, 4), sampleRate: 0, channels: 1)
        } throws: { error in
            ((error as? ExportFailure)?.cause ?? "").hasPrefix("varispeed: ")
        }
    }
}
