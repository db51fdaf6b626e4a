/// Numbers as fixed-point decimal text, the one formatter for reports, summaries and metadata tags
/// (no Foundation `String(format:)`, so no locale and the same rounding everywhere).
public enum DecimalText {
    /// `value` with exactly `digits` decimals, halves rounded away from zero: 2.5 → "2.50" (2),
    /// -0.25 → "-0.3" (1), -0.04 → "0.0" (1, no negative zero). Beyond what 64-bit integers hold
    /// (the absurd times of a damaged file), fewer decimals: 6e14 → "600000000000000.0000" (6);
    /// infinities and NaN in Swift's notation: inf, nan.
    public static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        guard abs(value) * scale < 0x1p63 else {
            return digits > 0 ? fixed(value, digits: digits - 1) : "\(value.rounded())"
        }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 0x1p63 else { return "\(value)" }
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled) - whole * Int64(scale)
        return text(isNegative: value < 0 && scaled != 0, whole: whole, fraction: fraction, digits: digits)
    }

    /// The exact `value` with `digits` decimals, halves rounded away from zero: 120000/1001 →
    /// "119.880120" (6).
    public static func fixed(_ value: Rational, digits: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * Rational(scale)).rounded()
        let magnitude = scaled.magnitude
        return text(
            isNegative: scaled < 0, whole: Int64(magnitude / UInt64(scale)),
            fraction: Int64(magnitude % UInt64(scale)), digits: digits)
    }

    private static func text(isNegative: Bool, whole: Int64, fraction: Int64, digits: Int) -> String {
        let sign = isNegative ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let decimals = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: max(0, digits - decimals.count)) + decimals
    }
}
