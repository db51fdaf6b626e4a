/// Makes a Matroska or WebM file that FFmpeg 5.1 wrote in `MatroskaTick` units, its muxer taking
/// them for milliseconds (`Muxer` does so), say what they are: `Info`'s `TimestampScale` (FFmpeg's
/// 1,000,000, three bytes) becomes the tick, and each track's `DURATION` tag, its length in ticks
/// written out as milliseconds, gets the real length in the same 20 bytes. The `CRC-32` elements
/// of `Info` and `Tags` are recomputed; nothing moves.
///
/// The rest is right once the scale is: cluster, block and cue times and the segment's `Duration`
/// are counted in it; `DefaultDuration` (from the real frame rate), codec delay, discard padding
/// and chapter times are in nanoseconds.
public enum MatroskaTimestampScalePatch {
    static let infoID: UInt32 = 0x1549_A966
    static let timestampScaleID: UInt32 = 0x2A_D7B1
    static let tagsID: UInt32 = 0x1254_C367
    static let tagID: UInt32 = 0x7373
    static let simpleTagID: UInt32 = 0x67C8
    static let tagNameID: UInt32 = 0x45A3
    static let tagStringID: UInt32 = 0x4487

    /// Declares `tick` as the timestamp scale of the Matroska file at `path` (finished: trailer
    /// written and flushed).
    public static func setTimestampScale(_ tick: MatroskaTick, inFileAt path: String) throws(AVFailure) {
        try MatroskaHead.rewrite(fileAt: path) { (head) throws(AVFailure) in
            guard let patched = patched(head, tick: tick) else {
                throw AVFailure.invalidData("\(path): no Matroska timestamp scale of FFmpeg's to set")
                    .during(.writingOutput)
            }
            return patched
        }
    }

    /// `head` (`MatroskaHead`) with `tick` as its timestamp scale and real `DURATION` tags; same
    /// length. Nil when the layout is not FFmpeg's: no `Info` with a `TimestampScale` of 1 ms
    /// before the first `Cluster`, or a `DURATION` tag that does not read as FFmpeg writes it.
    public static func patched(_ head: [UInt8], tick: MatroskaTick) -> [UInt8]? {
        guard let header = EBMLElement(head, at: 0), let segment = EBMLElement(head, at: header.end),
            segment.id == MatroskaRotationPatch.segmentID
        else { return nil }
        let level1 = EBMLElement.children(head, from: segment.dataStart, to: min(segment.end, head.count))
            .prefix { $0.id != MatroskaHead.clusterID }
        guard let info = level1.first(where: { $0.id == infoID }),
            let scale = info.children(head).first(where: { $0.id == timestampScaleID }),
            scale.unsigned(head) == UInt64(MatroskaTick.millisecond.nanoseconds)
        else { return nil }
        var out = head
        guard scale.setUnsigned(UInt64(tick.nanoseconds), in: &out) else { return nil }
        info.updateCRC(in: &out)
        for tags in level1 where tags.id == tagsID {
            for tag in tags.children(head) where tag.id == tagID {
                for simple in tag.children(head) where simple.id == simpleTagID {
                    guard rewriteDuration(simple, in: &out, tick: tick) else { return nil }
                }
            }
            tags.updateCRC(in: &out)
        }
        return out
    }

    /// Rewrites `simple` if it is FFmpeg's `DURATION` tag; false when it is one that does not read.
    static func rewriteDuration(_ simple: EBMLElement, in bytes: inout [UInt8], tick: MatroskaTick) -> Bool {
        let fields = simple.children(bytes)
        guard let name = fields.first(where: { $0.id == tagNameID }),
            bytes[name.dataStart..<name.end].elementsEqual("DURATION".utf8),
            let value = fields.first(where: { $0.id == tagStringID })
        else { return true }
        let text = bytes[value.dataStart..<value.end].prefix { $0 != 0 }
        guard value.dataSize == durationLength, let written = nanoseconds(String(decoding: text, as: UTF8.self))
        else { return false }
        // FFmpeg wrote ticks × 1 ms: back to ticks (rounded: its text has 9 decimals), then real time.
        let ticks = (written + 500_000) / 1_000_000
        let (real, overflow) = ticks.multipliedReportingOverflow(by: tick.nanoseconds)
        guard !overflow else { return false }
        bytes.replaceSubrange(value.dataStart..<value.end, with: durationField(nanoseconds: real))
        return true
    }

    /// FFmpeg's `DURATION` tag string: `snprintf(…, 20, "%02d:%02d:%012.9f")`, NUL-padded to 20 bytes.
    static let durationLength = 20

    /// The nanoseconds of "HH:MM:SS.nnnnnnnnn" (hours of any length, up to 9 decimals); nil otherwise.
    static func nanoseconds(_ text: String) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        // Hours below a billion: the seconds below then fit in 64 bits.
        guard parts.count == 3, let hours = Int64(parts[0]), let minutes = Int64(parts[1]), hours >= 0,
            hours < 1_000_000_000, minutes >= 0, minutes < 60
        else { return nil }
        let second = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard second.count <= 2, let whole = Int64(second[0]), whole >= 0 else { return nil }
        let decimals = second.count == 2 ? second[1] : ""
        guard decimals.count <= 9, decimals.allSatisfy(\.isASCII), decimals.allSatisfy(\.isNumber) else { return nil }
        let fraction = Int64(decimals + String(repeating: "0", count: 9 - decimals.count)) ?? 0
        let seconds = (hours * 60 + minutes) * 60 + whole
        guard seconds < Int64.max / 1_000_000_000 else { return nil }
        return seconds * 1_000_000_000 + fraction
    }

    /// `nanoseconds` as FFmpeg writes a `DURATION` tag.
    static func durationField(nanoseconds: Int64) -> [UInt8] {
        func padded(_ n: Int64, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let second: Int64 = 1_000_000_000
        let text =
            padded(nanoseconds / (3600 * second), 2) + ":" + padded(nanoseconds / (60 * second) % 60, 2) + ":"
            + padded(nanoseconds / second % 60, 2) + "." + padded(nanoseconds % second, 9)
        let kept = Array(text.utf8.prefix(durationLength - 1))
        return kept + [UInt8](repeating: 0, count: durationLength - kept.count)
    }
}
