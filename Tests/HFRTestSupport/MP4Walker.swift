/// A box of an MP4/MOV file found by `MP4Walker`: where it is and what holds it.
public struct MP4Box: Sendable {
    public let type: String
    public let offset: Int
    public let size: Int
    /// Where the payload starts (after the size/type header, and version/flags for full boxes).
    public let payload: Int
    /// The types of the boxes that hold it, outermost first.
    public let path: [String]
    public var end: Int { offset + size }
}

/// Walks every box of an MP4/MOV byte buffer (independent of hfr's reader): containers, the
/// sample entries inside `stsd`, and `meta`/`ilst` in both the ISO and the QuickTime layout.
public enum MP4Walker {
    static let containers: Set<String> = [
        "moov", "trak", "mdia", "minf", "stbl", "udta", "edts", "dinf", "mvex", "moof", "traf", "ilst",
    ]
    /// Full boxes (version and flags after the header).
    public static let fullBoxes: Set<String> = [
        "mvhd", "tkhd", "mdhd", "hdlr", "stsd", "stts", "ctts", "stsz", "stco", "co64", "stss", "stsc", "elst",
        "sdtp", "mehd", "trex", "mfhd", "tfhd", "tfdt", "trun", "keys", "sidx", "vmhd", "smhd", "dref",
    ]
    /// Sample entries and the size of their fixed fields before the child boxes.
    static let sampleEntries: [String: Int] = ["avc1": 78, "avc3": 78, "hvc1": 78, "hev1": 78, "mp4a": 28]

    public static func boxes(_ data: [UInt8]) -> [MP4Box] {
        var found: [MP4Box] = []
        walk(data, from: 0, to: data.count, path: [], into: &found)
        return found
    }

    static func walk(_ data: [UInt8], from start: Int, to end: Int, path: [String], into found: inout [MP4Box]) {
        var offset = start
        while offset + 8 <= end {
            var size = Int(be32(data, offset))
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            var header = 8
            if size == 1, offset + 16 <= end {
                size = Int(truncatingIfNeeded: UInt64(be32(data, offset + 8)) << 32 | UInt64(be32(data, offset + 12)))
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= header, size <= end - offset else { return }
            var payload = offset + header + (fullBoxes.contains(type) ? 4 : 0)
            // `meta` is a full box in ISO files, a plain container in QuickTime ones.
            if type == "meta", offset + 12 <= end, be32(data, offset + 8) == 0 { payload += 4 }
            found.append(MP4Box(type: type, offset: offset, size: size, payload: payload, path: path))
            let inside = path + [type]
            if containers.contains(type) || type == "meta" || path.last == "ilst" {
                walk(data, from: payload, to: offset + size, path: inside, into: &found)
            } else if type == "stsd" {
                walk(data, from: payload + 4, to: offset + size, path: inside, into: &found)
            } else if let fixed = sampleEntries[type] {
                walk(data, from: payload + fixed, to: offset + size, path: inside, into: &found)
            }
            offset += size
        }
    }

    public static func be32(_ data: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8
            | UInt32(data[offset + 3])
    }

    public static func put32(_ data: inout [UInt8], _ offset: Int, _ value: UInt32) {
        for k in 0..<4 { data[offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
    }

    /// File offsets and sizes of the samples of the first track whose `stsd` holds `entry`
    /// (e.g. "avc1"), from its stsc/stsz/stco tables; empty for fragmented files.
    public static func samples(_ data: [UInt8], entry: String) -> [(offset: Int, size: Int)] {
        let all = boxes(data)
        guard let entryBox = all.first(where: { $0.type == entry }),
            let trak = all.first(where: { $0.type == "trak" && $0.offset < entryBox.offset && entryBox.offset < $0.end }
            )
        else { return [] }
        func table(_ type: String) -> MP4Box? {
            all.first { $0.type == type && $0.offset > trak.offset && $0.offset < trak.end }
        }
        guard let stsz = table("stsz"), let stsc = table("stsc"), let stco = table("stco") else { return [] }
        let sizes = stszSizes(data, stsz)
        let chunks = (0..<Int(be32(data, stco.payload))).map { Int(be32(data, stco.payload + 4 + 4 * $0)) }
        let runs = (0..<Int(be32(data, stsc.payload))).map { k -> (first: Int, count: Int) in
            (Int(be32(data, stsc.payload + 4 + 12 * k)), Int(be32(data, stsc.payload + 8 + 12 * k)))
        }
        var result: [(offset: Int, size: Int)] = []
        for (c, chunkOffset) in chunks.enumerated() {
            let perChunk = runs.last { $0.first <= c + 1 }?.count ?? 0
            var offset = chunkOffset
            for _ in 0..<perChunk where result.count < sizes.count {
                result.append((offset, sizes[result.count]))
                offset += sizes[result.count - 1]
            }
        }
        return result.filter { $0.offset >= 0 && $0.offset + $0.size <= data.count }
    }

    static func stszSizes(_ data: [UInt8], _ stsz: MP4Box) -> [Int] {
        let fixed = Int(be32(data, stsz.payload))
        let count = Int(be32(data, stsz.payload + 4))
        if fixed != 0 { return Array(repeating: fixed, count: count) }
        return (0..<count).map { Int(be32(data, stsz.payload + 8 + 4 * $0)) }
    }
}
