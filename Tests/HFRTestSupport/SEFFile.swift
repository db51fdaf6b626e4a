import Foundation

/// Builds Samsung slow-motion ("SEF") data from the layout Media3 documents (`SefReader`,
/// `SmtaAtomUtil`): an `smta` box for `moov/udta` and the SEF trailer with a `SlowMotion_Data`
/// block. Written here from the layout, independently of hfr's reader.
public enum SEFFile {
    /// One recorded segment: stream milliseconds and the speed mode (the phone plays the segment
    /// 2^(mode−1) times slower).
    public struct Segment: Sendable {
        public var start: Int
        public var end: Int
        public var mode: Int
        public init(start: Int, end: Int, mode: Int) {
            self.start = start
            self.end = end
            self.mode = mode
        }
    }

    static func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    /// `smta` (a full box) holding `saut`: author, then (key 0, recording mode) and (key 1, layers);
    /// mode 13 is 120 fps, 12 is 240 fps; with `srfr`, mode 21 and the rate in 16.16 fixed point.
    public static func smta(mode: Int, layers: Int, srfr: Int? = nil) -> [UInt8] {
        let saut = box("saut", Array("SEC ".utf8) + [1, UInt8(layers), 0, UInt8(mode)])
        let rate = srfr.map { box("srfr", be32($0 << 16)) } ?? []
        return box("smta", [0, 0, 0, 0] + saut + rate)
    }

    /// A data block: type, sub-info, name length (little-endian), name, data.
    public static func block(type: Int, name: String, data: String) -> [UInt8] {
        le16(type) + le16(0) + le32(name.utf8.count) + Array(name.utf8) + Array(data.utf8)
    }

    /// The SEF trailer for `blocks` (each with its data type): the blocks, "SEFH", version, count,
    /// one 12-byte reference per block (offset back from "SEFH"), the table length and "SEFT".
    public static func trailer(_ blocks: [(type: Int, bytes: [UInt8])]) -> [UInt8] {
        let data = blocks.flatMap(\.bytes)
        var start = 0
        var table = Array("SEFH".utf8) + le32(107) + le32(blocks.count)
        for b in blocks {
            table += [0, 0] + le16(b.type) + le32(data.count - start) + le32(b.bytes.count)
            start += b.bytes.count
        }
        return data + table + le32(table.count) + Array("SEFT".utf8)
    }

    /// The `SlowMotion_Data` block for `segments` (`start:end:mode` joined by `*`).
    public static func slowMotionData(_ segments: [Segment]) -> [UInt8] {
        block(
            type: 0x0890, name: "SlowMotion_Data",
            data: segments.map { "\($0.start):\($0.end):\($0.mode)" }.joined(separator: "*"))
    }

    /// Copies the MP4 at `source` (its `moov` last, with a `udta`) to `path` with `smta` added to
    /// `moov/udta` (box sizes grown; nothing after `moov` moves) and `trailer` appended.
    public static func write(from source: String, to path: String, smta: [UInt8], trailer: [UInt8]) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let top = AndroidMetadata.boxes(bytes, 0, bytes.count)
        guard let moov = top.last, moov.type == "moov", moov.end == bytes.count,
            let udta = AndroidMetadata.boxes(bytes, moov.start + 8, moov.end).first(where: { $0.type == "udta" })
        else { throw CocoaError(.fileReadCorruptFile) }
        bytes.insert(contentsOf: smta, at: udta.end)
        bytes.replaceSubrange(udta.start..<(udta.start + 4), with: be32(udta.size + smta.count))
        bytes.replaceSubrange(moov.start..<(moov.start + 4), with: be32(moov.size + smta.count))
        try Data(bytes + trailer).write(to: URL(fileURLWithPath: path))
    }
}
