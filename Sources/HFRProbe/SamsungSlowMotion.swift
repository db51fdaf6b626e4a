import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Samsung's slow-motion recordings ("SEF"): what the phone's own player needs to play part of a
/// high-frame-rate clip slowed down and the rest in real time.
///
/// - `moov/udta/smta` (a full box) holds `saut`: 4 bytes of author, then two (key, value) byte
///   pairs in any order: key 0 the recording mode, key 1 the number of SVC temporal layers. Mode 12
///   is 240 fps, mode 13 120 fps; mode 21 (HEVC) gives the rate in a sibling `srfr` box (16.16 fixed
///   point after its header).
/// - The SEF trailer, after the last box: data blocks, then "SEFH", version, count (4 bytes each),
///   `count` 12-byte references (2 bytes flags, data type, offset, size; little-endian), the length
///   of header plus references (4 bytes, little-endian) and "SEFT" as the file's last 4 bytes. A
///   reference's offset is the distance back from the start of "SEFH" to its block; a block is
///   type (2), sub-info (2), name length (4, little-endian), name, data. The `SlowMotion_Data`
///   block's data is `start:end:mode` segments joined by `*` (milliseconds of the stream's time;
///   the segment plays 2^(mode−1) times slower).
///
/// The layout is the one Media3 documents in `SefReader`, `SmtaAtomUtil` and `SlowMotionData`.
public struct SamsungSlowMotion: Sendable, Equatable {
    /// Stream milliseconds [start, end) to play `speedDivisor` times slower.
    public struct Segment: Sendable, Equatable {
        public var start: Int64
        public var end: Int64
        /// A power of two: 4 = a quarter of normal speed.
        public var speedDivisor: Int64

        public init(start: Int64, end: Int64, speedDivisor: Int64) {
            self.start = start
            self.end = end
            self.speedDivisor = speedDivisor
        }
    }

    /// From `smta`/`saut`: frames per second captured (nil when the mode does not say).
    public var captureFrameRate: Int?
    /// From `smta`/`saut`: SVC temporal layers in the stream.
    public var temporalLayerCount: Int?
    /// From the `SlowMotion_Data` of the SEF trailer, in stream order.
    public var segments: [Segment]

    public init(captureFrameRate: Int?, temporalLayerCount: Int?, segments: [Segment]) {
        self.captureFrameRate = captureFrameRate
        self.temporalLayerCount = temporalLayerCount
        self.segments = segments
    }

    /// A SEF trailer or `smta` box that breaks the layout.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// What the file at `path` holds; nil when it has neither `smta` nor a `SlowMotion_Data` block.
    public static func read(path: String) throws(Malformed) -> SamsungSlowMotion? {
        guard let file = ReadOnlyFile(path: path) else { return nil }
        let smta = userData(length: file.length, read: file.read)
        let segments = try trailerSegments(length: file.length, read: file.read)
        guard smta != nil || segments != nil else { return nil }
        return SamsungSlowMotion(
            captureFrameRate: smta?.captureFrameRate, temporalLayerCount: smta?.temporalLayerCount,
            segments: segments ?? [])
    }

    /// The capture rate in the `smta` box of the file at `path` (the trailer is not read).
    public static func captureFrameRate(path: String) -> Int? {
        guard let file = ReadOnlyFile(path: path) else { return nil }
        return userData(length: file.length, read: file.read)?.captureFrameRate
    }

    /// The `smta` of `moov/udta`, found by box headers (only `udta` is read whole).
    static func userData(
        length: Int64, read: (Int64, Int) -> [UInt8]?
    ) -> (captureFrameRate: Int?, temporalLayerCount: Int?)? {
        guard let moov = child("moov", from: 0, to: length, read: read),
            let udta = child("udta", from: moov.body, to: moov.end, read: read), udta.end - udta.body <= 1 << 24,
            let bytes = read(udta.body, Int(udta.end - udta.body))
        else { return nil }
        guard let smta = boxes(bytes, 0, bytes.count).first(where: { $0.type == "smta" }) else { return nil }
        return samsungMetadata(Array(bytes[smta.start..<smta.end]))
    }

    /// The first box of `type` among those laid end to end in [from, to) of the file: where its
    /// content starts (after a 32- or 64-bit size) and where it ends.
    static func child(
        _ type: String, from: Int64, to: Int64, read: (Int64, Int) -> [UInt8]?
    ) -> (body: Int64, end: Int64)? {
        var offset = from
        while offset + 8 <= to, let header = read(offset, 8) {
            var size = Int64(be32(header, 0))
            var headerSize: Int64 = 8
            if size == 1, let large = read(offset + 8, 8) {
                size = Int64(be32(large, 0)) << 32 | Int64(be32(large, 4))
                headerSize = 16
            }
            if size == 0 { size = to - offset }
            guard size >= headerSize, offset + size <= to else { return nil }
            if String(decoding: header[4..<8], as: UTF8.self) == type { return (offset + headerSize, offset + size) }
            offset += size
        }
        return nil
    }

    /// The capture rate and layer count of an `smta` box (header included).
    public static func samsungMetadata(_ smta: [UInt8]) -> (captureFrameRate: Int?, temporalLayerCount: Int?)? {
        // A full box: the children follow 4 bytes of version and flags.
        let children = boxes(smta, 12, smta.count)
        guard let saut = children.first(where: { $0.type == "saut" }), saut.size >= 16 else { return nil }
        var mode: Int? = nil
        var layers: Int? = nil
        for pair in 0..<2 {
            let key = smta[saut.start + 12 + 2 * pair]
            let value = Int(smta[saut.start + 13 + 2 * pair])
            if key == 0 { mode = value } else if key == 1 { layers = value }
        }
        var rate: Int? = nil
        switch mode {
        case 12: rate = 240
        case 13: rate = 120
        case 21:
            if let srfr = children.first(where: { $0.type == "srfr" }), srfr.size >= 12 {
                rate = Int(be32(smta, srfr.start + 8) >> 16)
            }
        default: break
        }
        return (rate, layers)
    }

    /// The segments of the SEF trailer's `SlowMotion_Data` block; nil when the file has no SEF
    /// trailer or no such block.
    public static func trailerSegments(length: Int64, read: (Int64, Int) -> [UInt8]?) throws(Malformed) -> [Segment]? {
        guard let footer = read(length - 8, 8), String(decoding: footer[4..<8], as: UTF8.self) == "SEFT" else {
            return nil
        }
        // Header (12) and references (12 each) before the footer.
        let tableLength = Int(le32(footer, 0))
        let tailStart = length - 8 - Int64(tableLength)
        guard tableLength >= 12, let table = read(tailStart, tableLength),
            String(decoding: table[0..<4], as: UTF8.self) == "SEFH"
        else { throw Malformed(description: "SEF trailer: bad header before SEFT") }
        // As many references as fit (Media3 reads them so, whatever the count field says).
        for i in 0..<((tableLength - 12) / 12) {
            let entry = 12 + 12 * i
            let start = tailStart - Int64(le32(table, entry + 4))
            let size = Int(le32(table, entry + 8))
            guard let block = read(start, size) else {
                throw Malformed(description: "SEF trailer: reference \(i + 1) points outside the file")
            }
            if let segments = try slowMotionData(block) { return segments }
        }
        return nil
    }

    /// Where the SEF trailer of the file at `path` begins (its first data block): the boxes end
    /// there. nil without a well-formed trailer.
    public static func trailerStart(path: String) -> Int64? {
        guard let file = ReadOnlyFile(path: path), let footer = file.read(file.length - 8, 8),
            String(decoding: footer[4..<8], as: UTF8.self) == "SEFT"
        else { return nil }
        let tableLength = Int(le32(footer, 0))
        let tailStart = file.length - 8 - Int64(tableLength)
        guard tableLength >= 12, let table = file.read(tailStart, tableLength),
            String(decoding: table[0..<4], as: UTF8.self) == "SEFH"
        else { return nil }
        let count = (tableLength - 12) / 12
        let starts = (0..<count).map { tailStart - Int64(le32(table, 12 + 12 * $0 + 4)) }
        let start = starts.min().map { min($0, tailStart) } ?? tailStart
        return start >= 0 ? start : nil
    }

    /// A data block's segments if it is `SlowMotion_Data`, else nil.
    static func slowMotionData(_ block: [UInt8]) throws(Malformed) -> [Segment]? {
        guard block.count >= 8 else { throw Malformed(description: "SEF data block shorter than its header") }
        let nameLength = Int(le32(block, 4))
        guard 8 + nameLength <= block.count else { throw Malformed(description: "SEF data block name overruns it") }
        guard String(decoding: block[8..<(8 + nameLength)], as: UTF8.self) == "SlowMotion_Data" else { return nil }
        let text = String(decoding: block[(8 + nameLength)...], as: UTF8.self)
        return try segments(text)
    }

    /// Parses `start:end:mode*start:end:mode…`; segments must run forwards and not overlap.
    public static func segments(_ text: String) throws(Malformed) -> [Segment] {
        var result: [Segment] = []
        for part in text.split(separator: "*", omittingEmptySubsequences: false) {
            let fields = part.split(separator: ":", omittingEmptySubsequences: false).map { field in
                Int64(
                    String(
                        field.drop { $0.isWhitespace || $0 == "\0" }.reversed().drop { $0.isWhitespace || $0 == "\0" }
                            .reversed()))
            }
            guard fields.count == 3, let start = fields[0], let end = fields[1], let mode = fields[2],
                start >= 0, start < end, (1...16).contains(mode)
            else { throw Malformed(description: "SlowMotion_Data '\(part)' is not START:END:MODE") }
            if let last = result.last, start < last.end {
                throw Malformed(description: "SlowMotion_Data segment at \(start) ms overlaps the one before")
            }
            result.append(Segment(start: start, end: end, speedDivisor: 1 << (mode - 1)))
        }
        return result
    }

    /// A file opened for reading at offsets; closed when dropped.
    private final class ReadOnlyFile {
        let fd: Int32
        let length: Int64

        init?(path: String) {
            fd = FileSystem.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                return nil
            }
            length = Int64(info.st_size)
        }

        deinit { close(fd) }

        /// `count` bytes at `offset`, or nil when they are not all in the file.
        func read(_ offset: Int64, _ count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset + Int64(count) <= length else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return n == count ? bytes : nil
        }
    }

    private struct Box {
        var start: Int
        var size: Int
        var type: String
        var end: Int { start + size }
    }

    private static func boxes(_ bytes: [UInt8], _ from: Int, _ to: Int) -> [Box] {
        var result: [Box] = []
        var offset = from
        while offset + 8 <= to {
            let size = Int(be32(bytes, offset))
            guard size >= 8, offset + size <= to else { break }
            result.append(
                Box(
                    start: offset, size: size, type: String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                ))
            offset += size
        }
        return result
    }

    private static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    private static func le32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}

extension Prober {
    /// The capture rate a file declares: its tags (hfr's exact key first, then Android's), else
    /// the `smta` box of a Samsung slow-motion recording.
    public static func declaredCaptureRate(
        path: String, tags: [String: String], streamTags: [String: String]
    ) -> (Rational, ProbeReport.CaptureRateSource)? {
        if let declared = declaredCaptureRate(tags: tags, streamTags: streamTags) { return declared }
        guard let rate = SamsungSlowMotion.captureFrameRate(path: path), rate > 0 else { return nil }
        return (Rational(Int64(rate)), .samsungTag)
    }
}
