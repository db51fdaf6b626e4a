/// Mutations of the decoder configuration (avcC/hvcC) and of the NAL units in the samples.
extension Mutator {
    static func videoSamples(_ data: [UInt8]) -> [(offset: Int, size: Int)] {
        let avc = MP4Walker.samples(data, entry: "avc1")
        return avc.isEmpty ? MP4Walker.samples(data, entry: "hvc1") : avc
    }

    static func codecConfig(_ data: inout [UInt8], _ boxes: [MP4Box], _ rng: inout SplitMix64) -> String {
        guard let box = boxes.first(where: { $0.type == "avcC" || $0.type == "hvcC" }) else {
            return byteFlip(&data, headerEnd: nil, &rng)
        }
        let detail =
            box.type == "avcC"
            ? avcC(&data, from: box.payload, to: box.end, &rng) : hvcC(&data, from: box.payload, to: box.end, &rng)
        return "\(box.type)@\(box.offset) \(detail)"
    }

    /// Mutates an AVCDecoderConfigurationRecord in `data[start..<end]` (MP4 avcC or Matroska CodecPrivate).
    public static func avcC(_ data: inout [UInt8], from start: Int, to end: Int, _ rng: inout SplitMix64) -> String {
        guard end - start >= 8 else { return "too short" }
        let spsLength = Int(data[start + 6]) << 8 | Int(data[start + 7])
        let pps = start + 8 + spsLength  // numOfPictureParameterSets
        switch rng.below(8) {
        case 0:
            data[start] = rng.pick([0, 2, 0xFF])
            return "version := \(data[start])"
        case 1:
            data[start + 4] = rng.pick([0xFC, 0xFD, 0xFE, 0x00, 0xFF])
            return "lengthSizeMinusOne byte := \(data[start + 4])"
        case 2:
            data[start + 5] = rng.pick([0xE0, 0xE2, 0xFF, 0x00])
            return "SPS count byte := \(data[start + 5])"
        case 3:
            let value = rng.pick([0, 0xFFFF, spsLength + 1, spsLength - 1, spsLength + 40])
            data[start + 6] = UInt8(truncatingIfNeeded: value >> 8)
            data[start + 7] = UInt8(truncatingIfNeeded: value)
            return "SPS length \(spsLength) := \(value)"
        case 4 where pps + 3 <= end:
            data[pps] = rng.pick([0, 2, 0xFF])
            return "PPS count := \(data[pps])"
        case 5 where pps + 3 <= end:
            let value = rng.pick([0, 0xFFFF, Int(data[pps + 2]) + 1, 200])
            data[pps + 1] = UInt8(truncatingIfNeeded: value >> 8)
            data[pps + 2] = UInt8(truncatingIfNeeded: value)
            return "PPS length := \(value)"
        case 6 where spsLength > 1 && start + 8 + spsLength <= end:
            for k in (start + 9)..<(start + 8 + spsLength) { data[k] = 0 }
            return "SPS zeroed after its header"
        default:
            let at = start + 8 + rng.below(max(end - start - 8, 1))
            let mask = UInt8(1 + rng.below(255))
            data[at] ^= mask
            return "byte \(at) ^= \(mask)"
        }
    }

    static func hvcC(_ data: inout [UInt8], from start: Int, to end: Int, _ rng: inout SplitMix64) -> String {
        // 22 fixed bytes, numOfArrays, then arrays of (type, count(2), then length(2)+NAL per unit).
        guard end - start > 23 else { return "too short" }
        let field = rng.pick([0, 21, 22, 24, 25, 27, 28, 23 + rng.below(end - start - 23)])
        let at = start + field
        let old = data[at]
        data[at] = rng.pick([0, 0xFF, old ^ 0x80, old &+ 1])
        return "byte +\(field) \(old) := \(data[at])"
    }

    static func nal(_ data: inout [UInt8], header: Bool, _ rng: inout SplitMix64) -> String {
        let samples = videoSamples(data).filter { $0.size > 5 }
        guard !samples.isEmpty else { return byteFlip(&data, headerEnd: nil, &rng) }
        let index = rng.below(samples.count)
        let sample = samples[index]
        // Walk to a seeded NAL unit of the sample (4-byte lengths).
        var at = sample.offset
        for _ in 0..<rng.below(4) {
            let next = at + 4 + Int(MP4Walker.be32(data, at))
            guard next + 5 <= sample.offset + sample.size else { break }
            at = next
        }
        if header {
            let old = data[at + 4]
            data[at + 4] = rng.pick([old | 0x80, old ^ 0x1F, 0, 0x0E, 0x14, UInt8(rng.below(256))])
            return "sample \(index) NAL header @\(at + 4) \(old) := \(data[at + 4])"
        }
        let old = MP4Walker.be32(data, at)
        let value = rng.pick([0, 1, 0xFFFF_FFFF, old &+ 1, old &- 1, UInt32(sample.size) * 2, old &+ 4])
        MP4Walker.put32(&data, at, value)
        return "sample \(index) NAL length @\(at) \(old) := \(value)"
    }
}
