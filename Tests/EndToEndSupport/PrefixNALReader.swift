import Foundation
import HFRTestSupport

/// Reads temporal_id from SVC prefix NAL units (type 14) with ffmpeg doing the unpacking and this
/// file doing the bit reading — a separate implementation from hfr's parser.
package enum PrefixNALReader {
    package static func temporalIDs(of path: String) throws -> [Int] {
        let dir = try TemporaryDirectory()
        let raw = dir.path("stream.h264")
        try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-i", path, "-map", "0:v:0", "-c", "copy",
                "-bsf:v", "h264_mp4toannexb", "-f", "h264", raw,
            ])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        var ids: [Int] = []
        var i = 0
        // Each picture is preceded by one prefix NAL: 00 00 01 | 0x0E/0x6E… header | svc ext (3 bytes).
        while i + 6 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1, bytes[i + 3] & 0x1F == 14 {
                ids.append(Int(bytes[i + 6] >> 5))
                i += 7
            } else {
                i += 1
            }
        }
        return ids
    }
}
