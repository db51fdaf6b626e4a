import Foundation

/// Independent, minimal reading of MP4 boxes for tests (not hfr's reader).
public enum MP4Boxes {
    /// The top-level box types in file order.
    public static func topLevel(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var types: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = Int(be32(data, offset))
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1 { size = Int(be32(data, offset + 8)) << 32 | Int(be32(data, offset + 12)) }
            if size == 0 { size = data.count - offset }
            guard size >= 8 else { break }
            types.append(type)
            offset += size
        }
        return types
    }

    /// Per sample of the first `sdtp` box: whether sample_is_depended_on == 2 (disposable).
    public static func sdtpDisposable(_ path: String) throws -> [Bool]? {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let range = data.range(of: Data("sdtp".utf8)) else { return nil }
        let start = range.lowerBound - 4
        let size = Int(be32(data, start))
        // 8-byte header, 4 bytes version/flags, then one byte per sample.
        return data[(start + 12)..<(start + size)].map { ($0 >> 2) & 3 == 2 }
    }

    static func be32(_ data: Data, _ offset: Int) -> UInt32 {
        let i = data.startIndex + offset
        return UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])
    }
}

/// Reads and filters an Annex B H.264 stream by SVC temporal id — a layer drop done without hfr.
public enum AnnexB {
    /// Splits `bytes` into NAL units (without start codes).
    public static func nalUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [(code: Int, payload: Int)] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                starts.append((i > 0 && bytes[i - 1] == 0 ? i - 1 : i, i + 3))
                i += 3
            } else {
                i += 1
            }
        }
        return starts.indices.map { k in
            bytes[starts[k].payload..<(k + 1 < starts.count ? starts[k + 1].code : bytes.count)]
        }
    }

    /// Keeps parameter sets and the access units whose prefix NAL says temporal_id < `below`.
    public static func keepingLayers(below: Int, of bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var keep = true
        for nal in nalUnits(bytes) {
            guard let header = nal.first else { continue }
            let type = header & 0x1F
            if type == 14, nal.count >= 4 {
                keep = Int(nal[nal.startIndex + 3] >> 5) < below
            }
            if type == 7 || type == 8 || keep {
                out += [0, 0, 0, 1] + nal
            }
        }
        return out
    }
}
