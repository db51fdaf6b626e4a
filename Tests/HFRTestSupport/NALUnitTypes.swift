import Foundation

/// Independent readings of NAL unit headers, per packet, for tests to compare hfr's parser with.
public enum NALUnitTypes {
    /// One HEVC NAL unit as ffmpeg's `trace_headers` decodes it.
    public struct HEVCUnit: Equatable, Sendable {
        public let type: Int
        public let temporalID: Int
        public var isVCL: Bool { type < 32 }
    }

    /// Every video packet of an HEVC file, in file order: its NAL units (trace_headers).
    public static func hevc(_ path: String) throws -> [[HEVCUnit]] {
        let result = try Tool.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-i", path, "-map", "0:v:0", "-c", "copy", "-bsf:v", "trace_headers",
                "-f", "null", "-",
            ])
        var packets: [[HEVCUnit]] = []
        var type: Int? = nil
        for line in result.stderr.split(separator: "\n") {
            if line.contains("] Packet:") {
                packets.append([])
                continue
            }
            guard let value = line.split(separator: " ").last.flatMap({ Int($0) }) else { continue }
            if line.contains(" nal_unit_type ") {
                type = value
            } else if line.contains(" nuh_temporal_id_plus1 "), let t = type, !packets.isEmpty {
                packets[packets.count - 1].append(HEVCUnit(type: t, temporalID: value - 1))
                type = nil
            }
        }
        return packets
    }

    /// Every video packet of an MP4/MOV/MKV H.264 file (4-byte NAL lengths), in file order: the
    /// nal_unit_type of each NAL unit, read from the payload ffprobe dumps (`-show_data`).
    public static func h264(_ path: String) throws -> [[Int]] {
        try payloads(path).map { bytes in
            var types: [Int] = []
            var i = 0
            while i + 4 < bytes.count {
                let length = bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
                types.append(Int(bytes[i + 4] & 0x1F))
                i += 4 + length
            }
            return types
        }
    }

    /// The payload of every video packet, from ffprobe's hex dump.
    public static func payloads(_ path: String) throws -> [[UInt8]] {
        let r = try Tool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_packets", "-show_data", path])
        return r.stdout.components(separatedBy: "[PACKET]").dropFirst().map { block in
            var bytes: [UInt8] = []
            let dump = block.components(separatedBy: "data=").last ?? ""
            for line in dump.split(separator: "\n") {
                // "00000010: 0000 0001 ...  ascii": the hex groups between the offset and the text.
                guard line.count > 10, line.dropFirst(8).hasPrefix(": ") else { continue }
                let hex = line.dropFirst(10).prefix(40).split(separator: " ").joined()
                var index = hex.startIndex
                while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
                    let byte = UInt8(hex[index..<next], radix: 16)
                {
                    bytes.append(byte)
                    index = next
                }
            }
            return bytes
        }
    }
}
