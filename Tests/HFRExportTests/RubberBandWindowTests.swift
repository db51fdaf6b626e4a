import Foundation
import Testing

@testable import HFRExport

/// `RubberBandWindow` replays Rubber Band 3.1.2's hop and buffer arithmetic. (The end-to-end proof
/// that the choice avoids the bad read is ExportAudioTests' 12× speed-up under MALLOC_PERTURB_.)
struct RubberBandWindowTests {
    static let rates = [8000, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 192000]

    /// At 44.1 kHz and up the standard window reads past its buffer for speed-ups between 8× and
    /// 16× (the hop is then between a quarter and a half of the longest FFT), and only there.
    @Test(arguments: [44100, 48000, 96000, 192000])
    func standardWindowReadsPastOnlyBetweenEightAndSixteenTimesFaster(rate: Int) {
        for ratio in [1.0 / 15.9, 0.1, 1.0 / 12, 1.0 / 8.1] {
            #expect(RubberBandWindow.standard.readsPastItsBuffer(sampleRate: rate, ratio: ratio), "ratio \(ratio)")
            #expect(RubberBandWindow(sampleRate: rate, ratio: ratio) == .short)
        }
        for ratio in [0.001, 1.0 / 16.1, 1.0 / 7.9, 0.5, 1, 4, 100] {
            #expect(!RubberBandWindow.standard.readsPastItsBuffer(sampleRate: rate, ratio: ratio), "ratio \(ratio)")
            #expect(RubberBandWindow(sampleRate: rate, ratio: ratio) == .standard)
        }
    }

    /// Whatever window is chosen, it stays inside its buffer: a sweep over every rate hfr meets and
    /// ratios from 1/1000 to 1000.
    @Test func theChosenWindowNeverReadsPast() {
        var bad: [String] = []
        for rate in Self.rates {
            for step in 0...600 {
                let ratio = exp(Double(step) / 600 * 2 * 6.907755 - 6.907755)
                let window = RubberBandWindow(sampleRate: rate, ratio: ratio)
                if window.readsPastItsBuffer(sampleRate: rate, ratio: ratio) { bad.append("\(rate) Hz × \(ratio)") }
            }
        }
        #expect(bad.isEmpty, "\(bad.prefix(5))")
    }
}
