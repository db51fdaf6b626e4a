import HFRMedia
import Testing

/// The one fixed-point formatter behind summaries, reports and tags.
struct DecimalTextTests {
    @Test(arguments: [
        (2.5, 2, "2.50"), (0.0004, 3, "0.000"), (1.0005, 1, "1.0"), (-0.25, 1, "-0.3"), (-0.04, 1, "0.0"),
        (59.94005994, 3, "59.940"), (12.0, 0, "12"), (0.5, 0, "1"),
        // Beyond Int64 with the decimals asked for (a damaged file's duration): Swift's notation.
        (3.0e16, 6, "3e+16"), (-1e300, 3, "-1e+300"), (.infinity, 3, "inf"), (.nan, 3, "nan"),
    ])
    func doubles(value: Double, digits: Int, text: String) {
        #expect(DecimalText.fixed(value, digits: digits) == text)
    }

    @Test(arguments: [
        (Rational(120), 6, "120.000000"), (Rational(120_000, 1001), 6, "119.880120"), (Rational(1, 3), 2, "0.33"),
        (Rational(-5, 2), 0, "-3"), (Rational(-1, 8), 2, "-0.13"), (Rational(-1, 1000), 2, "0.00"),
    ])
    func rationals(value: Rational, digits: Int, text: String) {
        #expect(DecimalText.fixed(value, digits: digits) == text)
    }
}
