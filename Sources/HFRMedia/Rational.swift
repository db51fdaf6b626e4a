import CFFmpeg

/// An exact rational number: frame rates, time bases and timestamps in seconds.
///
/// Always reduced, denominator positive. Time is never converted to `Double` except for display.
public struct Rational: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let numerator: Int64
    public let denominator: Int64

    /// Creates `numerator/denominator` in lowest terms; the denominator must not be zero.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "Rational with zero denominator")
        let divisor = Swift.max(Rational.gcd(numerator, denominator), 1)
        let sign: Int64 = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / divisor
        self.denominator = sign * denominator / divisor
    }

    /// Converts FFmpeg's rational; nil for the 0/0 or x/0 FFmpeg uses for "unknown".
    init?(_ value: AVRational) {
        guard value.den != 0, value.num != 0 || value.den == 1 else { return nil }
        self.init(Int64(value.num), Int64(value.den))
    }

    /// Parses "120", "120/1", "60000/1001" or a decimal such as "120.000000" or "29.97".
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let n = Int64(parts[0]), let d = Int64(parts[1]), d != 0 else { return nil }
            self.init(n, d)
            return
        }
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = Int64(pieces[0]) else { return nil }
        guard pieces.count == 2 else {
            self.init(whole)
            return
        }
        let digits = pieces[1]
        guard digits.count <= 12, digits.allSatisfy(\.isASCII), let fraction = Int64(digits) else { return nil }
        var scale: Int64 = 1
        for _ in 0..<digits.count { scale *= 10 }
        let sign: Int64 = text.hasPrefix("-") ? -1 : 1
        // A whole part too large for the digits after it (9999999999999.123456789012) is no number
        // hfr can hold: nil, not an overflow.
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: scale)
        let (value, overflowAgain) = scaled.addingReportingOverflow(sign * fraction)
        guard !overflow, !overflowAgain else { return nil }
        self.init(value, scale)
    }

    /// FFmpeg's representation; fails (returns nil) when a term does not fit in 32 bits.
    var avRational: AVRational? {
        guard let n = Int32(exactly: numerator), let d = Int32(exactly: denominator) else { return nil }
        return AVRational(num: n, den: d)
    }

    /// The nearest `Double`, for display and for APIs that only take floating point.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    public var isInteger: Bool { denominator == 1 }

    public var reciprocal: Rational { Rational(denominator, numerator) }

    public var description: String { "\(numerator)/\(denominator)" }

    /// "120" for integers, "60000/1001" otherwise.
    public var compactDescription: String { isInteger ? "\(numerator)" : description }

    public static func < (a: Rational, b: Rational) -> Bool {
        a.numerator.multipliedFullWidth(by: b.denominator) < b.numerator.multipliedFullWidth(by: a.denominator)
    }

    public static func * (a: Rational, b: Rational) -> Rational {
        let g1 = Swift.max(gcd(a.numerator, b.denominator), 1)
        let g2 = Swift.max(gcd(b.numerator, a.denominator), 1)
        let n = (a.numerator / g1).multipliedReportingOverflow(by: b.numerator / g2)
        let d = (a.denominator / g2).multipliedReportingOverflow(by: b.denominator / g1)
        guard n.overflow || d.overflow else { return Rational(n.partialValue, d.partialValue) }
        return Rational(approximating: a.doubleValue * b.doubleValue)
    }

    public static func / (a: Rational, b: Rational) -> Rational { a * b.reciprocal }

    public static func + (a: Rational, b: Rational) -> Rational {
        let g = gcd(a.denominator, b.denominator)
        let l = (a.denominator / g).multipliedReportingOverflow(by: b.denominator)
        let x = a.numerator.multipliedReportingOverflow(by: l.partialValue / a.denominator)
        let y = b.numerator.multipliedReportingOverflow(by: l.partialValue / b.denominator)
        let sum = x.partialValue.addingReportingOverflow(y.partialValue)
        if !(l.overflow || x.overflow || y.overflow || sum.overflow) {
            return Rational(sum.partialValue, l.partialValue)
        }
        return Rational(approximating: a.doubleValue + b.doubleValue)
    }

    public static func - (a: Rational, b: Rational) -> Rational { a + Rational(-b.numerator, b.denominator) }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return Int64(x)
    }

    static func lcm(_ a: Int64, _ b: Int64) -> Int64 { a / gcd(a, b) * b }
}

extension Rational {
    /// `ticks` in `timeBase` as exact seconds.
    public static func seconds(_ ticks: Int64, in timeBase: Rational) -> Rational {
        Rational(ticks) * timeBase
    }

    /// Converts a timestamp between time bases with FFmpeg's overflow-safe rounding to nearest.
    public static func rescale(_ ticks: Int64, from source: Rational, to target: Rational) -> Int64 {
        guard let s = source.avRational, let t = target.avRational else {
            return ((Rational(ticks) * source) / target).rounded()
        }
        return av_rescale_q_rnd(ticks, s, t, AV_ROUND_NEAR_INF)
    }

    /// Rounds to the nearest integer, halves away from zero.
    public func rounded() -> Int64 {
        let (q, r) = numerator.quotientAndRemainder(dividingBy: denominator)
        guard r.magnitude >= (denominator.magnitude + 1) / 2 else { return q }
        return numerator >= 0 ? q + 1 : q - 1
    }

    /// The nearest value whose terms fit, for results exact arithmetic cannot hold (absurd
    /// timestamps in a corrupt file): arithmetic never traps, and the checks that follow refuse the
    /// input by its absurd times instead. Infinite or not-a-number values become ±2^62 or 0.
    public init(approximating value: Double) {
        guard value.isFinite else {
            self.init(value.isNaN ? 0 : (value > 0 ? 1 << 62 : -(1 << 62)))
            return
        }
        guard abs(value) < 0x1p62 else {
            self.init(value > 0 ? 1 << 62 : -(1 << 62))
            return
        }
        // A power-of-two denominator as large as the magnitude allows: exact for the Double itself.
        var denominator: Int64 = 1
        while denominator < 1 << 30, abs(value * Double(denominator * 2)) < 0x1p62 { denominator *= 2 }
        self.init(Int64((value * Double(denominator)).rounded()), denominator)
    }
}
