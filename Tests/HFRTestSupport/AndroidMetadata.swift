import Foundation

/// Reads `mdta` metadata the way Android's MPEG4Extractor does (an independent reader, not hfr's):
/// only a `meta` box directly under `moov`, in QuickTime's form (its children right after the
/// header, no version and flags), with handler `mdta`; `keys` names item n of `ilst` (from 1);
/// `com.android.capture.fps` counts only as a big-endian float32 (data type 23).
public enum AndroidMetadata {
    /// One `mdta` value: its data type and raw bytes.
    public struct Value: Equatable, Sendable {
        public var type: UInt32
        public var bytes: [UInt8]
    }

    /// The capture rate Android reads from the file at `path`, or nil when it finds none.
    public static func captureRate(_ path: String) throws -> Float? {
        guard let value = try values(path)["com.android.capture.fps"], value.type == 23, value.bytes.count >= 4
        else { return nil }
        let bits = value.bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Float(bitPattern: bits)
    }

    /// Every moov-level `mdta` value by key.
    public static func values(_ path: String) throws -> [String: Value] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let moov = boxes(bytes, 0, bytes.count).first(where: { $0.type == "moov" }),
            let meta = boxes(bytes, moov.start + 8, moov.end).first(where: { $0.type == "meta" })
        else { return [:] }
        // QuickTime form: the children start right after the 8-byte header.
        let children = boxes(bytes, meta.start + 8, meta.end)
        guard let hdlr = children.first(where: { $0.type == "hdlr" }), hdlr.size >= 20,
            String(decoding: bytes[(hdlr.start + 16)..<(hdlr.start + 20)], as: UTF8.self) == "mdta",
            let keys = children.first(where: { $0.type == "keys" }),
            let ilst = children.first(where: { $0.type == "ilst" })
        else { return [:] }
        // Android's rules: every key an `mdta` one, every item a known key with one `data` atom
        // of more than 16 bytes and a well-known type; anything else fails the whole file.
        var names: [String] = []
        var offset = keys.start + 16
        for _ in 0..<Int(be32(bytes, keys.start + 12)) {
            guard offset + 8 <= keys.end else { throw Malformed(description: "keys overrun") }
            let size = Int(be32(bytes, offset))
            guard size >= 8, offset + size <= keys.end, type(bytes, offset + 4) == "mdta" else {
                throw Malformed(description: "key at \(offset) is not an mdta key")
            }
            names.append(String(decoding: bytes[(offset + 8)..<(offset + size)], as: UTF8.self))
            offset += size
        }
        var result: [String: Value] = [:]
        for item in boxes(bytes, ilst.start + 8, ilst.end) {
            let index = Int(be32(bytes, item.start + 4)) - 1
            let dataSize = item.size > 8 + 16 ? Int(be32(bytes, item.start + 8)) : 0
            guard names.indices.contains(index), dataSize > 16, dataSize <= item.size - 8,
                type(bytes, item.start + 12) == "data", bytes[item.start + 16] == 0
            else { throw Malformed(description: "ilst item \(index + 1) is not what Android accepts") }
            let data = item.start + 8
            result[names[index]] = Value(
                type: be32(bytes, data + 8), bytes: Array(bytes[(data + 16)..<(data + dataSize)]))
        }
        return result
    }

    /// What Android's extractor would reject (and with it the whole file).
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    static func type(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    /// A box found in a byte array.
    public struct Box: Sendable {
        public var start: Int
        public var size: Int
        public var type: String
        public var end: Int { start + size }
    }

    /// The boxes laid end to end in `bytes[from..<to]`.
    public static func boxes(_ bytes: [UInt8], _ from: Int, _ to: Int) -> [Box] {
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

    static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}

/// exiftool's verbose dump (`-v3`), which names each QuickTime item's data type.
public enum ExifTool {
    /// The value and data type exiftool reports for item `name` (e.g. "AndroidCaptureFps"):
    /// ("120", "Flags=0x17 (float)"), or nil when it has no such item.
    public static func item(_ name: String, in path: String) throws -> (value: String, type: String)? {
        let lines = try Tool.run("exiftool", ["-v3", path]).stdout.split(separator: "\n").map(String.init)
        guard let i = lines.firstIndex(where: { $0.contains("| \(name) = ") }), i + 1 < lines.count,
            let value = lines[i].components(separatedBy: " = ").last,
            let flags = lines[i + 1].range(of: #"Flags=0x[0-9a-f]+ \([^)]*\)"#, options: .regularExpression)
        else { return nil }
        return (value, String(lines[i + 1][flags]))
    }
}
