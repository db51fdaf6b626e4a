/// Mutations of a fragmented MP4's `tfdt` (each fragment's base media decode time): huge, negative
/// when read as signed, going backwards or standing still from the track's previous fragment, or
/// jumping forwards.
extension Mutator {
    /// A track fragment's decode time box: where its value is, its width and its track.
    public struct DecodeTime: Sendable {
        public let box: MP4Box
        public let track: UInt32
        public let is64: Bool
    }

    /// The `tfdt` boxes of a fragmented file, in file order, with their tracks.
    public static func decodeTimes(_ data: [UInt8], _ boxes: [MP4Box]) -> [DecodeTime] {
        boxes.filter { $0.type == "tfdt" }.compactMap { box in
            let is64 = data[box.payload - 4] == 1
            guard box.payload + (is64 ? 8 : 4) <= box.end,
                let traf = boxes.last(where: { $0.type == "traf" && $0.offset < box.offset && box.offset < $0.end }),
                let tfhd = boxes.first(where: { $0.type == "tfhd" && $0.offset > traf.offset && $0.end <= traf.end }),
                tfhd.payload + 4 <= tfhd.end
            else { return nil }
            return DecodeTime(box: box, track: MP4Walker.be32(data, tfhd.payload), is64: is64)
        }
    }

    static func get64(_ data: [UInt8], _ at: Int) -> UInt64 {
        UInt64(MP4Walker.be32(data, at)) << 32 | UInt64(MP4Walker.be32(data, at + 4))
    }

    /// Sets one fragment's decode time.
    static func decodeTime(_ data: inout [UInt8], _ boxes: [MP4Box], _ rng: inout SplitMix64) -> String {
        let times = decodeTimes(data, boxes)
        guard !times.isEmpty else { return byteFlip(&data, headerEnd: nil, &rng) }
        func value(_ t: DecodeTime) -> UInt64 {
            t.is64 ? get64(data, t.box.payload) : UInt64(MP4Walker.be32(data, t.box.payload))
        }
        // Mostly a later fragment, whose track has a previous one to go back from.
        let later = times.indices.filter { k in times[..<k].contains { $0.track == times[k].track } }
        let k = !later.isEmpty && rng.below(4) != 0 ? rng.pick(later) : rng.below(times.count)
        let t = times[k]
        let old = value(t)
        let previous = times[..<k].last { $0.track == t.track }.map(value)
        var choices: [(String, UInt64)] = [
            ("huge", UInt64(1) << 62), ("huge", UInt64(Int64.max)), ("huge", UInt64.max - 1),
            ("huge", UInt64(1) << 40), ("negative", UInt64(bitPattern: -1)), ("negative", UInt64(1) << 63),
            ("negative", UInt64(bitPattern: -1000)), ("zero", 0), ("forward", old &+ 3_600 * 90_000),
            ("forward", old &* 1000 &+ 1),
        ]
        if let previous {
            choices += [
                ("backwards", previous / 2), ("backwards", previous &- 1), ("backwards", 0),
                ("same as the previous", previous), ("before the previous", previous &- (old &- previous)),
            ]
        }
        let (kind, wide) = rng.pick(choices.filter { $0.1 != old })
        let new = t.is64 ? wide : wide & 0xFFFF_FFFF
        if t.is64 {
            MP4Walker.put32(&data, t.box.payload, UInt32(truncatingIfNeeded: new >> 32))
            MP4Walker.put32(&data, t.box.payload + 4, UInt32(truncatingIfNeeded: new))
        } else {
            MP4Walker.put32(&data, t.box.payload, UInt32(truncatingIfNeeded: new))
        }
        return "tfdt@\(t.box.offset) (track \(t.track), tfdt \(k)) \(old) := \(new) (\(kind))"
    }
}
