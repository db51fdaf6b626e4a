import Foundation

/// Mutations of QuickTime PCM sound sample descriptions (`lpcm`, `twos`, `sowt`, `in24` …): the
/// channel count, sample size and rate of version 0, the per-packet and per-frame byte counts of
/// version 1, the float rate, channels, bits and flags of version 2, and the format's four-cc.
extension Mutator {
    /// The PCM sample entries QuickTime and FFmpeg write.
    public static let pcmEntries: Set<String> = [
        "lpcm", "twos", "sowt", "in24", "in32", "fl32", "fl64", "raw ", "NONE",
    ]

    /// A PCM field: its name, offset from the sample entry's start and width in bytes.
    struct PCMField {
        let name: String
        let offset: Int
        let width: Int
        let values: [UInt64]
    }

    /// The fields of a sound sample description of `version` (after the 8-byte header, 6 reserved
    /// bytes and the data reference index).
    static func pcmFields(version: Int) -> [PCMField] {
        let counts: [UInt64] = [0, 1, 2, 3, 5, 6, 8, 64, 255, 0x7FFF, 0xFFFF]
        let bits: [UInt64] = [0, 1, 4, 7, 8, 12, 16, 20, 24, 32, 33, 64, 0xFFFF]
        var fields = [
            PCMField(name: "version", offset: 16, width: 2, values: [0, 1, 2, 3, 0xFFFF]),
            PCMField(name: "channels", offset: 24, width: 2, values: counts),
            PCMField(name: "bits per sample", offset: 26, width: 2, values: bits),
            PCMField(name: "compression id", offset: 28, width: 2, values: [0, 0xFFFE, 0xFFFF, 1]),
            PCMField(name: "packet size", offset: 30, width: 2, values: [0, 1, 0xFFFF]),
            PCMField(
                name: "sample rate (16.16)", offset: 32, width: 4,
                values: [0, 1, 0x0001_0000, 8000 << 16, 44100 << 16, 0xFFFF_0000, 0xFFFF_FFFF, 0x8000_0000]),
        ]
        let bytes: [UInt64] = [0, 1, 2, 3, 4, 5, 6, 8, 0x7FFF_FFFF, 0xFFFF_FFFF]
        if version == 1 {
            fields += [
                PCMField(name: "samples per packet", offset: 36, width: 4, values: [0, 1, 2, 1024, 0xFFFF_FFFF]),
                PCMField(name: "bytes per packet", offset: 40, width: 4, values: bytes),
                PCMField(name: "bytes per frame", offset: 44, width: 4, values: bytes),
                PCMField(name: "bytes per sample", offset: 48, width: 4, values: bytes),
            ]
        } else if version == 2 {
            let rates: [Double] = [0, -48000, 1, 1e-300, 1e300, .infinity, .nan, 2_000_000, 44100.5]
            fields += [
                PCMField(name: "struct size", offset: 36, width: 4, values: [0, 1, 72, 0xFFFF_FFFF]),
                PCMField(name: "float sample rate", offset: 40, width: 8, values: rates.map(\.bitPattern)),
                PCMField(name: "v2 channels", offset: 48, width: 4, values: counts + [0x10000, 0xFFFF_FFFF]),
                PCMField(name: "v2 bits per channel", offset: 56, width: 4, values: bits + [0xFFFF_FFFF]),
                PCMField(name: "format flags", offset: 60, width: 4, values: [0, 1, 2, 3, 4, 8, 0xC, 0xFFFF_FFFF]),
                PCMField(name: "bytes per packet (v2)", offset: 64, width: 4, values: bytes),
                PCMField(name: "frames per packet", offset: 68, width: 4, values: [0, 1, 2, 0xFFFF_FFFF]),
            ]
        }
        return fields
    }

    /// Mutates one PCM sample entry: one or two fields, or its four-cc.
    public static func pcmEntry(_ data: inout [UInt8], _ boxes: [MP4Box], _ rng: inout SplitMix64) -> String {
        guard let box = boxes.first(where: { pcmEntries.contains($0.type) && $0.path.last == "stsd" }),
            box.size >= 36
        else { return byteFlip(&data, headerEnd: nil, &rng) }
        if rng.below(6) == 0 {
            let type = rng.pick(["lpcm", "twos", "sowt", "in24", "in32", "fl32", "fl64", "raw ", "ulaw"])
            data.replaceSubrange(box.offset + 4..<box.offset + 8, with: Array(type.utf8))
            return "\(box.type)@\(box.offset) four-cc := \(type)"
        }
        let version = Int(data[box.offset + 16]) << 8 | Int(data[box.offset + 17])
        let fields = pcmFields(version: version).filter { $0.offset + $0.width <= box.size }
        var done: [String] = []
        for _ in 0..<(rng.below(3) == 0 ? 2 : 1) {
            let field = rng.pick(fields)
            let at = box.offset + field.offset
            let old = (0..<field.width).reduce(UInt64(0)) { $0 << 8 | UInt64(data[at + $1]) }
            let mask = field.width == 8 ? UInt64.max : (UInt64(1) << UInt64(8 * field.width)) - 1
            let value = rng.pick(field.values.filter { $0 != old } + [old &+ 1, old &- 1]) & mask
            for k in 0..<field.width {
                data[at + k] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (field.width - 1 - k)))
            }
            done.append("\(field.name) \(old) := \(value)")
        }
        return "\(box.type)@\(box.offset) v\(version) " + done.joined(separator: ", ")
    }
}
