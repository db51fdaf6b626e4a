import HFRMedia
import Testing

/// The one fixed-point formatter behind summaries, reports and tags.
struct DecimalTextTests {
    @Test(arguments: [
        (2.5, 2, "2.50"), (0.0004, 3, "0.000"), (1.0005, 1, "1.0"), (-0.25, 1, "-0.3"), (-0.04, 1, "0.0"),
        (59.94005994, 3, "59.940"), (12.0, 0, "12"), (0.5, 0, "1"),
        // Beyond 64-bit integers (it trapped): fewer decimals.
        (6e14, 6, "600000000000000.0000"), (-1e20, 3, "-1e+20"), (.infinity, 3, "inf"),
        (-1e300, 3, "-1e+300"), (.nan, 3, "nan"),
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
