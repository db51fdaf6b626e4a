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

    /// The times of `text` (read from `source`), exact: milliseconds as written, up to 9 digits (11
    /// days) and 6 decimals (nanoseconds). Bytes, not characters: an hour at 120 fps is 432,000 lines.
    public static func parse(_ text: String, source: String) throws(Failure) -> TimestampList {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(Failure) in try times(bytes, source: source) }
        }
        return try result.get()
    }

    private static func times(_ bytes: UnsafeBufferPointer<UInt8>, source: String) throws(Failure) -> TimestampList {
        var nanoseconds: [Int64] = []
        var sawHeader = false
        var number = 0
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            number += 1
            let line = trimmed(bytes, start..<end)
            start = end + 1
            if line.isEmpty { continue }
            if bytes[line.lowerBound] == UInt8(ascii: "#") {
                if !sawHeader, nanoseconds.isEmpty, isHeader(String(decoding: bytes[line], as: UTF8.self)) {
                    sawHeader = true
                }
                continue
            }
            var written: String { quoted(bytes, line) }
            if bytes[line].contains(0) {
                throw Failure(line: number, cause: "NUL bytes: not UTF-8 text (UTF-16 needs its byte-order mark)")
            }
            guard sawHeader else {
                throw Failure(
                    line: number,
                    cause: "no '# timestamp format v2' header before the first time (got '\(written)')")
            }
            guard let ns = TimestampFile.nanoseconds(bytes, line) else {
                throw Failure(line: number, cause: "'\(written)' is not a time in milliseconds (such as 33.333)")
            }
            if let last = nanoseconds.last, ns <= last {
                throw Failure(
                    line: number,
                    cause: "\(written) ms is not after the previous time (times must strictly increase)")
            }
            nanoseconds.append(ns)
        }
        guard !nanoseconds.isEmpty else {
            throw Failure(
                line: nil, cause: sawHeader ? "no timestamps after the header" : "not a timestamp v2 file")
        }
        return TimestampList(nanoseconds: nanoseconds, source: source)
    }

    /// `# timecode format v2` or `# timestamp format v2` (any case, any spacing).
    static func isHeader(_ line: String) -> Bool {
        let words = line.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        return words.count == 3 && ["timecode", "timestamp"].contains(words[0]) && words[1] == "format"
            && words[2] == "v2"
    }

    /// A line as a message quotes it: on one line and short (a stray CR, a control character or an
    /// invisible one escaped; at most 40 characters of a line that may be megabytes long).
    private static func quoted(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let scalars = String(decoding: bytes[range], as: UTF8.self).unicodeScalars
        let shown = scalars.prefix(40).map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: scalar.escaped(asASCII: true)
            default: String(scalar)
            }
        }
        return shown.joined() + (scalars.count > 40 ? "…" : "")
    }

    /// `range` of `bytes` without leading and trailing spaces, tabs and carriage returns.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        var (lo, hi) = (range.lowerBound, range.upperBound)
        while lo < hi, blank(bytes[lo]) { lo += 1 }
        while hi > lo, blank(bytes[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    /// Non-negative decimal milliseconds (1–9 digits, optionally a point and 1–6 more) in ns.
    private static func nanoseconds(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        var whole: Int64 = 0
        var wholeDigits = 0
        var fraction: Int64 = 0
        var fractionDigits: Int? = nil
        for i in range {
            let byte = bytes[i]
            if byte == UInt8(ascii: "."), fractionDigits == nil {
                fractionDigits = 0
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            if let d = fractionDigits {
                guard d < 6 else { return nil }
                fraction = fraction * 10 + digit
                fractionDigits = d + 1
            } else {
                guard wholeDigits < 9 else { return nil }
                whole = whole * 10 + digit
                wholeDigits += 1
            }
        }
        guard wholeDigits > 0, fractionDigits != 0 else { return nil }
        var scale: Int64 = 1
        for _ in (fractionDigits ?? 0)..<6 { scale *= 10 }
        return whole * 1_000_000 + fraction * scale
    }
}
