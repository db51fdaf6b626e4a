/// Parses frame timestamp files: `rpicam-vid --save-pts` output and mkvmerge's "timestamp format
/// v2" (formerly "timecode format v2"): a header line, then one time in milliseconds per frame
/// (decimals allowed: `33.333`), in presentation order. Blank lines and `#` comments are skipped.
public enum TimestampFile {
    /// Why a file was not accepted; `line` is 1-based.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let line: Int?
        public let cause: String
        public var description: String { line.map { "line \($0): \(cause)" } ?? cause }
    }

    /// The times of `text` in seconds, exact (milliseconds as written, decimals included).
    public static func parse(_ text: String) throws(Failure) -> [Rational] {
        var times: [Rational] = []
        var sawHeader = false
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = offset + 1
            let line = raw.trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if !sawHeader, times.isEmpty, isHeader(line) { sawHeader = true }
                continue
            }
            guard sawHeader else {
                throw Failure(
                    line: number, cause: "no '# timestamp format v2' header before the first time (got '\(line)')")
            }
            guard let ms = milliseconds(line) else {
                throw Failure(line: number, cause: "'\(line)' is not a time in milliseconds (such as 33.333)")
            }
            let seconds = ms / Rational(1000)
            if let last = times.last, seconds <= last {
                throw Failure(
                    line: number, cause: "\(line) ms is not after the previous time (times must strictly increase)")
            }
            times.append(seconds)
        }
        guard !times.isEmpty else {
            throw Failure(line: nil, cause: sawHeader ? "no timestamps after the header" : "not a timestamp v2 file")
        }
        return times
    }

    /// `# timecode format v2` or `# timestamp format v2` (any case, any spacing).
    static func isHeader(_ line: Substring) -> Bool {
        let words = line.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        return words.count == 3 && ["timecode", "timestamp"].contains(words[0]) && words[1] == "format"
            && words[2] == "v2"
    }

    /// A non-negative decimal number of milliseconds: up to 9 digits (11 days), optionally a point
    /// and up to 6 more (nanoseconds), so that every time is exact in a time base of 1/10⁹ s.
    private static func milliseconds(_ text: Substring) -> Rational? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), (1...9).contains(parts[0].count),
            parts.count == 1 || (1...6).contains(parts[1].count),
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return Rational(parsing: String(text))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var s = self
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return s
    }
}
