extension Rational {
    /// The forms `init(parsingTime:)` accepts, for error messages.
    public static let timeForms = "seconds (5, 2.5, 1/3), 5s, 500ms, 250us, MM:SS (1:30, 0:01.5) or HH:MM:SS (1:02:03)"

    /// A time in exact seconds, never negative: `5`, `2.5`, `1/3`, `5s`, `2.5s`, `500ms`, `250us`,
    /// `1:30`, `0:01.5`, `1:02:03`. In `MM:SS` and `HH:MM:SS` the fields after the first are below 60;
    /// the last field may have decimals, the others are whole numbers. No sign, no spaces.
    public init?(parsingTime text: String) {
        if text.contains(":") {
            guard let value = Rational.clockTime(text) else { return nil }
            self = value
            return
        }
        let units: [(suffix: String, scale: Rational)] = [
            ("ms", Rational(1, 1000)), ("us", Rational(1, 1_000_000)), ("s", Rational(1)),
        ]
        var number = Substring(text)
        var scale = Rational(1)
        if let unit = units.first(where: { text.hasSuffix($0.suffix) }) {
            number = number.dropLast(unit.suffix.count)
            scale = unit.scale
        }
        guard let value = Rational.unsigned(number) else { return nil }
        self = value * scale
    }

    /// `MM:SS[.fff]` or `HH:MM:SS[.fff]`.
    private static func clockTime(_ text: String) -> Rational? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count) else { return nil }
        var total = Rational(0)
        for (i, field) in fields.enumerated() {
            let isLast = i == fields.count - 1
            let digitsOnly = field.allSatisfy { $0.isASCII && $0.isNumber }
            guard isLast || digitsOnly, !field.contains("/"), let value = unsigned(field) else { return nil }
            if i > 0, value >= Rational(60) { return nil }
            total = total * Rational(60) + value
        }
        return total
    }

    /// A non-negative decimal or fraction of at most 12 digits before the point: digits first.
    private static func unsigned(_ text: Substring) -> Rational? {
        guard let first = text.first, first.isASCII, first.isNumber,
            text.prefix(while: { $0.isNumber }).count <= 12
        else { return nil }
        guard let value = Rational(parsing: String(text)), value >= Rational(0) else { return nil }
        return value
    }
}
