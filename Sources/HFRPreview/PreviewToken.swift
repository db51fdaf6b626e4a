/// The secret a preview on a non-loopback address requires on every request (as Jupyter's token):
/// 128 random bits from the system's generator (getrandom), as 32 hex digits.
///
/// A request carries it as the query argument `token` (the address hfr prints), as the cookie the
/// page sets when it is opened with that address (so its picture and figures follow), or as
/// `Authorization: Bearer TOKEN` (scripts).
public struct PreviewToken: Sendable, Equatable, CustomStringConvertible {
    public let description: String

    /// A new random token.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        description = words.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// A given token (the unit tests' known one); nil when it is not 16–128 URL-safe characters.
    init?(_ text: String) {
        let safe = text.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45
                || byte == 95
        }
        guard safe, (16...128).contains(text.utf8.count) else { return nil }
        description = text
    }

    /// Whether `candidate` is this token, in time that does not depend on where they differ.
    public func matches(_ candidate: String) -> Bool {
        let a = Array(description.utf8)
        let b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<a.count { difference |= a[i] ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}
