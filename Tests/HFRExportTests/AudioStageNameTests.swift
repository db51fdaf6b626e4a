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
            let text = Self.text(of: error)
            return text.contains("resampling audio from 0 to") && text.contains("for aac")
                && !text.contains("varispeed")
        }
    }

    @Test func varispeedSaysSo() {
        #expect {
            _ = try VarispeedStretcher(speed: Rational(1, 4), sampleRate: 0, channels: 1)
        } throws: { error in
            Self.text(of: error).hasPrefix("varispeed: ")
        }
    }

    /// What a stage's failure says (`StageFailure.description`).
    static func text(of error: any Error) -> String {
        guard case .failed(let failure) = error as? ExportFailure else { return "\(error)" }
        return failure.description
    }
}
