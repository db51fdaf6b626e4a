import HFRMedia
import Testing

@Suite struct RationalTests {
    @Test(arguments: [
        ("120", Rational(120)), ("120/1", Rational(120)), ("60000/1001", Rational(60000, 1001)),
        ("120.000000", Rational(120)), ("29.97", Rational(2997, 100)), ("240.5", Rational(481, 2)),
        ("-1.5", Rational(-3, 2)),
    ])
    func parsesRatesAsWrittenByToolsAndTags(text: String, expected: Rational) {
        #expect(Rational(parsing: text) == expected)
    }

    // The last: a whole part too large for its twelve decimals (it crashed record --fps, SIGILL).
    @Test(arguments: ["", "abc", "1/0", "1/2/3", "1.2.3", "x/2", "9999999999999.123456789012"])
    func rejectsMalformedText(text: String) {
        #expect(Rational(parsing: text) == nil)
    }

    @Test func reducesAndKeepsDenominatorPositive() {
        let r = Rational(240, -8)
        #expect(r.numerator == -30)
        #expect(r.denominator == 1)
        #expect(Rational(15360, 128) == Rational(120))
    }

    @Test func arithmeticIsExact() {
        let ntsc = Rational(30000, 1001)
        #expect(ntsc * Rational(2) == Rational(60000, 1001))
        #expect(Rational(120) / Rational(30) == Rational(4))
        #expect(Rational(1, 3) + Rational(1, 6) == Rational(1, 2))
        #expect(Rational(1, 2) - Rational(3, 4) == Rational(-1, 4))
        #expect(Rational(30000, 1001) < Rational(30))
        #expect(Rational(30000, 1001) != Rational(2997, 100))
    }

    @Test func secondsAndRescaleUseTheTimeBase() {
        #expect(Rational.seconds(1536, in: Rational(1, 15360)) == Rational(1, 10))
        #expect(Rational.rescale(128, from: Rational(1, 15360), to: Rational(1, 90000)) == 750)
        // Ten hours of 120 fps frames at 1/15360 land exactly, no drift.
        let frames: Int64 = 120 * 3600 * 10
        #expect(Rational.rescale(frames * 128, from: Rational(1, 15360), to: Rational(1, 120)) == frames)
    }

    @Test func roundsHalvesAwayFromZero() {
        #expect(Rational(5, 2).rounded() == 3)
        #expect(Rational(-5, 2).rounded() == -3)
        #expect(Rational(7, 3).rounded() == 2)
    }

    /// Terms a corrupt file's times can push past 64 bits: the nearest value that fits, never a trap.
    @Test func overflowingArithmeticApproximatesInsteadOfTrapping() {
        let huge = Rational(Int64.max / 3, 7)
        let product = huge * Rational(1_000_003, 999_983)
        #expect(abs(product.doubleValue / (huge.doubleValue * 1_000_003 / 999_983) - 1) < 1e-12)
        let sum = Rational(Int64.max / 2, 999_983) + Rational(Int64.max / 2, 1_000_003)
        #expect(abs(sum.doubleValue / (Double(Int64.max / 2) * (1 / 999_983.0 + 1 / 1_000_003.0)) - 1) < 1e-12)
        #expect(Rational(Int64.max, 3).rounded() == Int64.max / 3)
        #expect(Rational(approximating: .infinity) == Rational(1 << 62))
        #expect(Rational(approximating: 0.25) == Rational(1, 4))
        // Exact whenever the terms fit.
        #expect(Rational(1, 90000) * Rational(90000, 1001) == Rational(1, 1001))
    }
}
