import Foundation

/// Seeded, structure-aware mutations of MP4/MOV files for the fuzz suite. Each returns a short
/// description of what it changed (box, field, file offset, value) so a failing case can be read.
public enum Mutator {
    /// The categories that apply to an MP4/MOV file with these boxes.
    public static func mp4Categories(_ data: [UInt8]) -> [String] {
        let types = Set(MP4Walker.boxes(data).map(\.type))
        var result = ["box-size", "version", "byte-flip", "truncate"]
        result += tableTypes.filter { types.contains($0) }
        // The causes issue 13 names weigh more: decoder configuration and capture-rate tags.
        if types.contains("avcC") || types.contains("hvcC") { result += ["codec-config", "codec-config"] }
        if types.contains("keys") { result += ["tag", "tag", "tag"] }
        if !videoSamples(data).isEmpty { result += ["nal-length", "nal-header"] }
        return result
    }

    /// Boxes whose fields are tables or counts, mutated one 32-bit word at a time.
    static let tableTypes = [
        "stts", "ctts", "stsz", "stco", "stss", "stsc", "mdhd", "tkhd", "mvhd", "elst", "trun", "tfhd", "tfdt",
        "mehd", "trex", "sdtp",
    ]

    /// Applies one mutation of `category` to `data`; returns what it did.
    public static func mutateMP4(_ data: inout [UInt8], category: String, rng: inout SplitMix64) -> String {
        let boxes = MP4Walker.boxes(data)
        switch category {
        case "box-size": return boxSize(&data, boxes, &rng)
        case "version": return version(&data, boxes, &rng)
        case "codec-config": return codecConfig(&data, boxes, &rng)
        case "tag": return MetadataTags.mutate(&data, &rng)
        case "nal-length", "nal-header": return nal(&data, header: category == "nal-header", &rng)
        case "byte-flip": return byteFlip(&data, headerEnd: boxes.first { $0.type == "mdat" }?.offset, &rng)
        case "truncate": return truncate(&data, &rng)
        case "pcm-entry": return pcmEntry(&data, boxes, &rng)
        case "tfdt-time": return decodeTime(&data, boxes, &rng)
        default: return tableWord(&data, boxes.filter { $0.type == category }, &rng)
        }
    }

    /// A replacement for the 32-bit value `old`: edge values, neighbours or noise.
    public static func special(_ old: UInt32, _ rng: inout SplitMix64) -> UInt32 {
        let choices: [UInt32] = [
            0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, old &+ 1, old &- 1, old &* 2, old / 2, 0x0001_0000,
            UInt32(truncatingIfNeeded: rng.next()),
        ]
        return rng.pick(choices.filter { $0 != old })
    }

    static func boxSize(_ data: inout [UInt8], _ boxes: [MP4Box], _ rng: inout SplitMix64) -> String {
        let box = rng.pick(boxes)
        let old = MP4Walker.be32(data, box.offset)
        let value = rng.pick([0, 1, 7, 8, old &- 1, old &+ 1, old &* 2, 0xFFFF_FFFF, old &+ UInt32(rng.below(64))])
        MP4Walker.put32(&data, box.offset, value)
        return "\(box.type)@\(box.offset) size \(old) := \(value)"
    }

    static func version(_ data: inout [UInt8], _ boxes: [MP4Box], _ rng: inout SplitMix64) -> String {
        let full = boxes.filter { MP4Walker.fullBoxes.contains($0.type) && $0.payload <= $0.end }
        guard !full.isEmpty else { return byteFlip(&data, headerEnd: nil, &rng) }
        let box = rng.pick(full)
        let at = box.payload - 4 + (rng.below(4) == 0 ? 1 + rng.below(3) : 0)  // mostly the version byte
        let old = data[at]
        data[at] = rng.pick([0, 1, 2, 0xFF, old ^ 1].filter { $0 != old })
        return "\(box.type)@\(box.offset) version/flags byte \(at): \(old) := \(data[at])"
    }

    static func tableWord(_ data: inout [UInt8], _ boxes: [MP4Box], _ rng: inout SplitMix64) -> String {
        guard let box = boxes.isEmpty ? nil : rng.pick(boxes), box.end - box.payload >= 4 else {
            return byteFlip(&data, headerEnd: nil, &rng)
        }
        let words = (box.end - box.payload) / 4
        let k = rng.below(4) == 0 ? 0 : rng.below(words)  // often the entry count
        let at = box.payload + 4 * k
        let old = MP4Walker.be32(data, at)
        let value = special(old, &rng)
        MP4Walker.put32(&data, at, value)
        return "\(box.type)@\(box.offset) word \(k) (byte \(at)) \(old) := \(value)"
    }

    public static func byteFlip(_ data: inout [UInt8], headerEnd: Int?, _ rng: inout SplitMix64) -> String {
        guard !data.isEmpty else { return "empty" }
        let region = headerEnd.flatMap { rng.below(2) == 0 && $0 > 0 ? $0 : nil } ?? data.count
        var done: [String] = []
        for _ in 0..<(1 + rng.below(8)) {
            let at = rng.below(region)
            let mask = UInt8(1 + rng.below(255))
            data[at] ^= mask
            done.append("\(at)^\(mask)")
        }
        return "flips " + done.joined(separator: ",")
    }

    public static func truncate(_ data: inout [UInt8], _ rng: inout SplitMix64) -> String {
        let bound = rng.below(2) == 0 ? max(data.count / 10, 1) : data.count
        let length = rng.below(bound)
        data.removeSubrange(length...)
        return "truncated to \(length)"
    }
}
