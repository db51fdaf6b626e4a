import Foundation

/// Replaces the value of a capture-rate tag (QuickTime `keys`/`ilst`, as ffmpeg and hfr write them)
/// with an absurd one, resizing the boxes and moving the chunk offsets when the text length changes.
enum MetadataTags {
    static let texts = ["0.0000001", "7", "2147483647", "nan", "", "inf", "-120", "1e308", "0", "120abc", "1/0"]
    static let floats: [Float] = [1e-7, 7, 2_147_483_648, .nan, .infinity, -120, 0, 20_000]

    static func mutate(_ data: inout [UInt8], _ rng: inout SplitMix64) -> String {
        let boxes = MP4Walker.boxes(data)
        guard let keys = boxes.first(where: { $0.type == "keys" }) else { return "no keys" }
        var names: [String] = []
        var at = keys.payload + 4
        while at + 8 <= keys.end, names.count < Int(MP4Walker.be32(data, keys.payload)) {
            let size = Int(MP4Walker.be32(data, at))
            guard size >= 8, at + size <= keys.end else { break }
            names.append(String(decoding: data[at + 8..<at + size], as: UTF8.self))
            at += size
        }
        let wanted = names.indices.filter { names[$0].contains("capture") }
        guard !wanted.isEmpty else { return "no capture tag" }
        let index = rng.pick(wanted)
        let item = String(decoding: withUnsafeBytes(of: UInt32(index + 1).bigEndian) { Array($0) }, as: UTF8.self)
        guard let entry = boxes.first(where: { $0.type == item && $0.path.last == "ilst" }),
            let value = boxes.first(where: { $0.type == "data" && $0.offset > entry.offset && $0.end <= entry.end })
        else { return "no value of \(names[index])" }
        let type = MP4Walker.be32(data, value.offset + 8)
        let start = value.offset + 16
        if type == 23, value.end - start == 4 {
            let choice = rng.below(floats.count + 1)
            guard choice < floats.count else {
                MP4Walker.put32(&data, value.offset + 8, 21)
                MP4Walker.put32(&data, start, 0x7FFF_FFFF)
                return "\(names[index]) := int32 2147483647"
            }
            MP4Walker.put32(&data, start, floats[choice].bitPattern)
            return "\(names[index]) := float32 \(floats[choice])"
        }
        let text = rng.pick(texts)
        replace(&data, start..<value.end, with: Array(text.utf8), boxes: boxes)
        return "\(names[index]) := \"\(text)\""
    }

    /// Replaces `range` and keeps the file consistent: the sizes of the boxes around it and the
    /// chunk offsets that point past it change by the difference.
    static func replace(_ data: inout [UInt8], _ range: Range<Int>, with bytes: [UInt8], boxes: [MP4Box]) {
        let delta = bytes.count - range.count
        let tables = boxes.filter { $0.type == "stco" || $0.type == "co64" }
        for box in boxes where box.offset < range.lowerBound && box.end >= range.upperBound {
            let size = MP4Walker.be32(data, box.offset)
            if size > 1 { MP4Walker.put32(&data, box.offset, UInt32(Int(size) + delta)) }
        }
        for table in tables {
            let wide = table.type == "co64"
            let count = Int(MP4Walker.be32(data, table.payload))
            for k in 0..<count {
                let at = table.payload + 4 + (wide ? 8 : 4) * k + (wide ? 4 : 0)
                guard at + 4 <= table.end else { break }
                let old = Int(MP4Walker.be32(data, at))
                if old >= range.upperBound { MP4Walker.put32(&data, at, UInt32(old + delta)) }
            }
        }
        data.replaceSubrange(range, with: bytes)
    }
}
