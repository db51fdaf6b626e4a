/// An element of a Matroska (EBML) file: its ID and size fields and its data.
public struct EBMLElement: Sendable {
    public let id: UInt32
    public let offset: Int
    public let idLength: Int
    public let sizeLength: Int
    public let dataStart: Int
    public let dataEnd: Int
}

/// Walks and mutates Matroska files: element sizes and IDs, small values, the codec private data
/// (avcC) and SimpleBlock headers and NAL lengths; whole size fields and TimestampScale
/// (`EBMLMutatorFields`).
public enum EBMLMutator {
    static let masters: Set<UInt32> = [
        0x1A45_DFA3, 0x1853_8067, 0x114D_9B74, 0x4DBB, 0x1549_A966, 0x1654_AE6B, 0xAE, 0xE0, 0xE1, 0x1F43_B675,
        0xA0, 0x1C53_BB6B, 0xBB, 0xB7, 0x1254_C367, 0x7373, 0x67C8, 0x63C0,
    ]
    public static let categories = [
        "ebml-size", "ebml-id", "ebml-value", "codec-config", "block", "byte-flip", "truncate",
    ]

    public static func elements(_ data: [UInt8]) -> [EBMLElement] {
        var found: [EBMLElement] = []
        walk(data, from: 0, to: data.count, into: &found)
        return found
    }

    static func vintLength(_ first: UInt8) -> Int { first == 0 ? 9 : first.leadingZeroBitCount + 1 }

    static func walk(_ data: [UInt8], from start: Int, to end: Int, into found: inout [EBMLElement]) {
        var at = start
        while at < end {
            let idLength = vintLength(data[at])
            guard idLength <= 4, at + idLength < end else { return }
            let id = data[at..<at + idLength].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let sizeLength = vintLength(data[at + idLength])
            guard sizeLength <= 8, at + idLength + sizeLength <= end else { return }
            var size = UInt64(data[at + idLength]) & (0xFF >> UInt64(sizeLength))
            for k in 1..<sizeLength { size = size << 8 | UInt64(data[at + idLength + k]) }
            let dataStart = at + idLength + sizeLength
            let unknown = size == (UInt64(1) << (7 * UInt64(sizeLength))) - 1
            let dataEnd = unknown ? end : dataStart + Int(min(size, UInt64(end - dataStart)))
            found.append(
                EBMLElement(
                    id: id, offset: at, idLength: idLength, sizeLength: sizeLength,
                    dataStart: dataStart, dataEnd: dataEnd))
            if masters.contains(id) { walk(data, from: dataStart, to: dataEnd, into: &found) }
            at = dataEnd
        }
    }

    public static func mutate(_ data: inout [UInt8], category: String, rng: inout SplitMix64) -> String {
        let all = elements(data)
        guard !all.isEmpty else { return Mutator.byteFlip(&data, headerEnd: nil, &rng) }
        switch category {
        case "ebml-size":
            let e = rng.pick(all)
            let at = e.offset + e.idLength + rng.below(e.sizeLength)
            let old = data[at]
            data[at] = rng.pick([0xFF, 0x01, 0x00, old ^ UInt8(1 << rng.below(8)), old &+ 1, old &- 1])
            return "size byte of 0x\(String(e.id, radix: 16))@\(e.offset) (byte \(at)) \(old) := \(data[at])"
        case "ebml-id":
            let e = rng.pick(all)
            let at = e.offset + rng.below(e.idLength)
            data[at] ^= UInt8(1 << rng.below(8))
            return "ID byte of 0x\(String(e.id, radix: 16))@\(e.offset) (byte \(at)) ^= bit"
        case "ebml-value": return value(&data, all.filter { !masters.contains($0.id) }, &rng)
        case "codec-config":
            guard let e = all.first(where: { $0.id == 0x63A2 }) else { return "no CodecPrivate" }
            return "CodecPrivate " + Mutator.avcC(&data, from: e.dataStart, to: e.dataEnd, &rng)
        case "block": return block(&data, all.filter { $0.id == 0xA3 || $0.id == 0xA1 }, &rng)
        case "truncate": return Mutator.truncate(&data, &rng)
        case "ebml-size-field": return sizeField(&data, all, &rng)
        case "timestamp-scale": return timestampScaleValue(&data, all, &rng)
        default:
            let firstCluster = all.first { $0.id == 0x1F43_B675 }?.offset
            return Mutator.byteFlip(&data, headerEnd: firstCluster, &rng)
        }
    }

    static func value(_ data: inout [UInt8], _ leaves: [EBMLElement], _ rng: inout SplitMix64) -> String {
        let small = leaves.filter { (1...8).contains($0.dataEnd - $0.dataStart) }
        guard !small.isEmpty else { return "no small values" }
        let e = rng.pick(small)
        let fill: UInt8 = rng.pick([0, 0xFF, 0x7F])
        let random = rng.below(3) == 0
        for k in e.dataStart..<e.dataEnd { data[k] = random ? UInt8(rng.below(256)) : fill }
        return "value of 0x\(String(e.id, radix: 16))@\(e.offset) := \(random ? "random" : "\(fill)s")"
    }

    static func block(_ data: inout [UInt8], _ blocks: [EBMLElement], _ rng: inout SplitMix64) -> String {
        let usable = blocks.filter { $0.dataEnd - $0.dataStart > 9 }
        guard !usable.isEmpty else { return "no blocks" }
        let e = rng.pick(usable)
        let track = e.dataStart + vintLength(data[e.dataStart])  // then timecode (2), flags (1), frame
        switch rng.below(3) {
        case 0:
            let value = rng.pick([0x7FFF, 0x8000, 0, 0xFFFF])
            data[track] = UInt8(value >> 8)
            data[track + 1] = UInt8(value & 0xFF)
            return "block@\(e.offset) timecode := \(value)"
        case 1:
            data[track + 2] ^= UInt8(1 << rng.below(8))
            return "block@\(e.offset) flags bit flipped"
        default:
            guard track + 7 <= e.dataEnd else { return "short block" }
            let old = MP4Walker.be32(data, track + 3)
            let value = Mutator.special(old, &rng)
            MP4Walker.put32(&data, track + 3, value)
            return "block@\(e.offset) NAL length \(old) := \(value)"
        }
    }
}
