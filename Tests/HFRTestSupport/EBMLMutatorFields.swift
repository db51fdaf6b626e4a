/// Mutations of whole Matroska fields: an element's size rewritten as a number (zero, off by one,
/// past its parent or the file, unknown) and the segment's TimestampScale (0, 1, huge).
extension EBMLMutator {
    static let timestampScaleID: UInt32 = 0x2A_D7B1
    static let infoID: UInt32 = 0x1549_A966

    /// Rewrites the size field of a seeded element, keeping the field's length.
    static func sizeField(_ data: inout [UInt8], _ all: [EBMLElement], _ rng: inout SplitMix64) -> String {
        // Half the time a master element (a size that decides where its children end).
        let masters = all.filter { self.masters.contains($0.id) }
        let e = rng.below(2) == 0 && !masters.isEmpty ? rng.pick(masters) : rng.pick(all)
        let size = UInt64(e.dataEnd - e.dataStart)
        let parentEnd =
            all.last { self.masters.contains($0.id) && $0.dataStart <= e.offset && e.offset < $0.dataEnd }?.dataEnd
            ?? data.count
        let unknown = (UInt64(1) << (7 * UInt64(e.sizeLength))) - 1
        let choices: [(String, UInt64)] = [
            ("zero", 0), ("one", 1), ("one less", size &- 1), ("one more", size + 1), ("8 more", size + 8),
            ("double", size * 2), ("past the parent", UInt64(parentEnd - e.dataStart) + 1),
            ("to the end of the file", UInt64(data.count - e.dataStart)),
            ("past the end of the file", UInt64(data.count - e.dataStart) + 1000), ("largest", unknown - 1),
            ("unknown", unknown),
        ]
        let (kind, value) = rng.pick(choices.filter { $0.1 != size && $0.1 <= unknown })
        let at = e.offset + e.idLength
        for k in 0..<e.sizeLength {
            data[at + k] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (e.sizeLength - 1 - k)))
        }
        data[at] |= 0x80 >> UInt8(e.sizeLength - 1)  // the length marker
        return "size of 0x\(String(e.id, radix: 16))@\(e.offset) \(size) := \(value) (\(kind))"
    }

    /// Sets TimestampScale (nanoseconds per tick; 1,000,000 in FFmpeg's files) to an edge value,
    /// in 8 bytes when the value needs them: the bytes come from the longest string in Info
    /// (MuxingApp, WritingApp), so Info keeps its size and nothing after it moves.
    static func timestampScaleValue(_ data: inout [UInt8], _ all: [EBMLElement], _ rng: inout SplitMix64) -> String {
        guard let scale = all.first(where: { $0.id == timestampScaleID }),
            let info = all.first(where: {
                $0.id == infoID && $0.dataStart <= scale.offset && scale.dataEnd <= $0.dataEnd
            })
        else { return "no TimestampScale" }
        let value: UInt64 = rng.pick([
            0, 1, 2, 999, 1_000_001, 0xFF_FFFF, UInt64(UInt32.max), 1 << 40, UInt64(Int64.max), UInt64.max,
        ])
        let width = max(scale.dataEnd - scale.dataStart, (64 - value.leadingZeroBitCount + 7) / 8)
        let grow = width - (scale.dataEnd - scale.dataStart)
        // Info's children: the walk goes into none of them (none is a master it descends into).
        let children = all.filter { $0.offset >= info.dataStart && $0.dataEnd <= info.dataEnd }
        let donor = children.filter { [0x4D80, 0x5741].contains($0.id) && $0.sizeLength == 1 }
            .max { $0.dataEnd - $0.dataStart < $1.dataEnd - $1.dataStart }
        guard grow == 0 || (donor.map { $0.dataEnd - $0.dataStart >= grow } ?? false), scale.sizeLength == 1 else {
            return "no room for TimestampScale \(value)"
        }
        var region: [UInt8] = []
        for child in children {
            let header = Array(data[child.offset..<child.offset + child.idLength])
            if child.offset == scale.offset {
                region += header + [0x80 | UInt8(width)]
                region += (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - $0))) }
            } else if child.offset == donor?.offset, grow > 0 {
                let length = child.dataEnd - child.dataStart - grow
                region += header + [0x80 | UInt8(length)] + data[child.dataStart..<child.dataStart + length]
            } else {
                region += data[child.offset..<child.dataEnd]
            }
        }
        guard region.count == info.dataEnd - info.dataStart else { return "Info holds more than its children" }
        data.replaceSubrange(info.dataStart..<info.dataEnd, with: region)
        return "TimestampScale@\(scale.offset) := \(value) (\(width) bytes)"
    }
}
