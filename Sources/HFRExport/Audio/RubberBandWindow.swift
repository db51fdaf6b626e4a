import Foundation

/// Which analysis window Rubber Band's R3 engine gets for a stretch ratio.
///
/// Rubber Band 3.1.x (Debian 12 ships 3.1.2) reads past its analysis buffer when the ratio makes
/// the input hop longer than a quarter of its longest FFT but shorter than the hop where it stops
/// reading ahead: with the standard window, ratios between 1/16 and 1/8 (speed-ups of 8–16×) at
/// every rate from 32 kHz up. The values read are whatever follows the buffer on the heap, so the
/// output is sometimes NaN (the AAC encoder then refuses it). 3.2 fixed the limits ("Fix erroneous
/// limits calculations"). Where the standard window would read past, the short one is used.
///
/// The arithmetic is the engine's own in 3.1.2 (`R3Stretcher::Limits`, `calculateHop`,
/// `getWindowSourceSize`, `Guide`'s FFT sizes), so the choice follows the library, not a band
/// measured on one file.
enum RubberBandWindow: Equatable {
    case standard, short

    /// The standard window unless it would read past its buffer at `ratio`.
    init(sampleRate: Int, ratio: Double) {
        self = RubberBandWindow.standard.readsPastItsBuffer(sampleRate: sampleRate, ratio: ratio) ? .short : .standard
    }

    /// Whether the engine with this window would read past its window source at `ratio`.
    func readsPastItsBuffer(sampleRate: Int, ratio: Double) -> Bool {
        guard sampleRate > 0, ratio > 0, ratio.isFinite else { return false }
        let rate = Double(sampleRate)
        let classify = max(Self.roundUpDiv(rate, 32), 1024)
        let longest = self == .short ? classify : classify * 2
        let minOuthop = Self.roundUpDiv(rate, self == .short ? 256 : 512)
        let maxOuthop = Self.roundUpDiv(rate, 128) * (self == .short ? 5 : 4) / 4
        let maxInhopWithReadahead = Self.roundUpDiv(rate, self == .short ? 128 : 32)
        let maxInhop = self == .short ? Self.roundUpDiv(rate, 64) * 3 / 2 : Self.roundUpDiv(rate, 32)
        var outhop = 256.0
        if ratio > 1.5 {
            outhop = pow(2, 8 + 2 * log10(ratio - 0.5))
        } else if ratio < 1 {
            outhop = pow(2, 8 + 2 * log10(ratio))
        }
        if self == .short { outhop *= 2 }
        outhop = min(max(outhop, Double(minOuthop)), Double(maxOuthop))
        let inhop = Int(min(max(outhop / ratio, 1), Double(maxInhop)).rounded(.down))
        guard inhop < maxInhopWithReadahead else { return false }
        let windowSource = max(longest, classify + maxInhopWithReadahead)
        return (longest - classify) / 2 + inhop + classify > windowSource
    }

    /// Rubber Band's `roundUpDiv`: the quotient rounded up, then up to a power of two.
    private static func roundUpDiv(_ value: Double, _ divisor: Int) -> Int {
        let quotient = max(Int((value / Double(divisor)).rounded(.up)), 1)
        return quotient.nonzeroBitCount == 1 ? quotient : 1 << (Int.bitWidth - quotient.leadingZeroBitCount)
    }
}
