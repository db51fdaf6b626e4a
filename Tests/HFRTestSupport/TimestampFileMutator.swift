import Foundation

/// Mutations of a `--timestamps` file (`# timecode format v2`, one time in ms per line): gaps,
/// lines missing, repeated, out of order or extra, odd numbers, headers, garbage and NUL bytes, and
/// the encodings and line ends Windows tools write (UTF-16 with or without a byte-order mark, a
/// UTF-8 byte-order mark, CRLF, CR).
public enum TimestampFileMutator {
    public static let category = "timestamps-file"

    /// Times written the way rpicam-vid writes them (microseconds as ms with three decimals).
    public static func text(framesPerSecond: Int, frames: Int) -> [UInt8] {
        let lines = (0..<frames).map { i in
            let micros = (Int64(i) * 1_000_000 + Int64(framesPerSecond / 2)) / Int64(framesPerSecond)
            return String(format: "%lld.%03lld", micros / 1000, micros % 1000)
        }
        return Array((["# timecode format v2"] + lines).joined(separator: "\n").appending("\n").utf8)
    }

    /// Mutates `bytes` (a UTF-8 timestamps file): the lines, then maybe the encoding, then maybe bytes.
    public static func mutate(_ bytes: inout [UInt8], rng: inout SplitMix64) -> String {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        var details: [String] = []
        let roll = rng.below(8)
        if roll < 5 { details.append(mutateLines(&lines, &rng)) }
        let (encoded, encoding) = encode(lines, roll >= 3 ? rng.below(9) : 0)
        bytes = encoded
        if encoding != "UTF-8" { details.append(encoding) }
        if roll == 7 || rng.below(8) == 0 { details.append(mutateBytes(&bytes, &rng)) }
        return details.joined(separator: "; ")
    }

    /// The times of `lines` (after the header) in ms, as written.
    static func times(_ lines: [String]) -> [Double] { lines.dropFirst().compactMap { Double($0) } }

    static func format(_ ms: Double) -> String { String(format: "%.3f", ms) }

    static func mutateLines(_ lines: inout [String], _ rng: inout SplitMix64) -> String {
        let count = lines.count - 1  // times after the header
        guard count > 2 else { return "too short" }
        let k = 1 + rng.below(count)  // a line of times
        switch rng.below(12) {
        case 0, 1:
            // A gap from line k on: a frame period, a second, an hour, a day, up to the 9 digits' limit.
            let gap: Double = rng.pick([16.667, 1000, 3_600_000, 86_400_000, 900_000_000, 999_999_000])
            for j in k..<lines.count { lines[j] = format((Double(lines[j]) ?? 0) + gap) }
            return "gap of \(gap) ms from line \(k + 1)"
        case 2:
            let n = 1 + rng.below(min(count - 1, 8))
            lines.removeSubrange(k..<min(k + n, lines.count))
            return "\(n) lines removed from line \(k + 1)"
        case 3:
            let last = times(lines).last ?? 0
            let n = rng.pick([1, 2, 100, 1_000_000])
            lines += (1...n).map { format(last + 16.667 * Double($0)) }
            return "\(n) lines added"
        case 4:
            lines.insert(lines[k], at: k)
            return "line \(k + 1) repeated"
        case 5 where k + 1 < lines.count:
            lines.swapAt(k, k + 1)
            return "lines \(k + 1) and \(k + 2) swapped"
        case 6:
            let odd = rng.pick([
                "abc", "-16.667", "1e3", "16,667", "+16.667", "16.667 17", "0x10", "\u{0661}\u{0662}", "16.6670001",
                "9999999999", "NaN", "inf", "#", "\u{FEFF}16.667", "16.667\t# note", ".5", "5.", "999999999.999999",
                String(repeating: "9", count: 100_000),
            ])
            lines[k] = odd
            return "line \(k + 1) := '\(odd.prefix(20))'"
        case 7:
            let header = rng.pick([
                "# timecode format v1", "#timestamp format v2", "# TIMESTAMP  FORMAT  V2", "# timestamp format v2 x",
                "timestamp format v2", "",
            ])
            lines[0] = header
            return "header := '\(header)'"
        case 8:
            let factor = rng.pick([1000.0, 0.001, 0.000_001, 1e6])
            lines = [lines[0]] + times(lines).map { format($0 * factor) }
            return "times × \(factor)"
        case 9:
            lines = rng.below(2) == 0 ? [lines[0]] : []
            return lines.isEmpty ? "empty" : "header only"
        case 10:
            // Every time the same step apart, or the steps alternating (jitter).
            let step = rng.pick([0.001, 1.0, 8.333, 33.333, 1000.0])
            lines = [lines[0]] + (0..<count).map { format(Double($0) * step + ($0 % 2 == 0 ? 0 : step / 3)) }
            return "steps of \(step) ms, jittered"
        default:
            lines.insert(rng.pick(["# a comment", "", "   ", "\t", "\r"]), at: k)
            return "blank or comment line at \(k + 1)"
        }
    }

    /// The lines in encoding `choice` with its line ends.
    static func encode(_ lines: [String], _ choice: Int) -> ([UInt8], String) {
        func joined(_ end: String) -> String { lines.map { $0 + end }.joined() }
        switch choice {
        case 1: return (Array(joined("\r\n").utf8), "CRLF")
        case 2: return (Array(joined("\r").utf8), "CR line ends")
        case 3: return ([0xEF, 0xBB, 0xBF] + Array(joined("\n").utf8), "UTF-8 with a byte-order mark")
        case 4: return ([0xFF, 0xFE] + utf16(joined("\r\n"), littleEndian: true), "UTF-16LE, BOM, CRLF")
        case 5: return ([0xFE, 0xFF] + utf16(joined("\n"), littleEndian: false), "UTF-16BE, BOM")
        case 6: return (utf16(joined("\r\n"), littleEndian: true), "UTF-16LE without a byte-order mark")
        case 7: return ([0xFF, 0xFE, 0, 0] + utf32(joined("\n")), "UTF-32LE, BOM")
        case 8: return (Array(joined("\n").utf8) + [0xE9], "a Latin-1 byte at the end")
        default: return (Array(joined("\n").utf8), "UTF-8")
        }
    }

    static func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in
            let bytes = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            return littleEndian ? bytes : bytes.reversed()
        }
    }

    static func utf32(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { s in (0..<4).map { UInt8(truncatingIfNeeded: s.value >> (8 * $0)) } }
    }

    /// NUL bytes, random bytes or a cut, anywhere.
    static func mutateBytes(_ bytes: inout [UInt8], _ rng: inout SplitMix64) -> String {
        guard !bytes.isEmpty else {
            bytes = [0]
            return "a NUL byte"
        }
        let at = rng.below(bytes.count)
        switch rng.below(4) {
        case 0:
            let n = rng.pick([1, 2, 64])
            bytes.insert(contentsOf: [UInt8](repeating: 0, count: n), at: at)
            return "\(n) NUL bytes at byte \(at)"
        case 1:
            bytes += [UInt8](repeating: 0, count: rng.pick([1, 4096]))
            return "NUL bytes at the end"
        case 2:
            let n = min(1 + rng.below(32), bytes.count - at)
            for j in at..<at + n { bytes[j] = UInt8(rng.below(256)) }
            return "\(n) random bytes at byte \(at)"
        default:
            bytes.removeSubrange(at...)
            return "cut at byte \(at)"
        }
    }
}
