import Foundation

/// An independent reading of an H.264 stream: ffmpeg's `trace_headers` bitstream filter.
///
/// Tests compare hfr's own parser against this, so a bug in hfr cannot hide by agreeing with itself.
public struct TracedFrame: Equatable, Sendable {
    public var nalRefIdc = 0
    /// slice_type of the first slice, mod 5 (0 P, 1 B, 2 I).
    public var sliceType: Int?
    public var nalUnitTypes: [Int] = []
    /// temporal_id when trace_headers decodes an SVC prefix NAL unit (nil when it does not).
    public var temporalID: Int?

    public var isDroppable: Bool { sliceType != nil && nalRefIdc == 0 }
}

public enum TraceHeaders {
    /// Every video packet of `path`, in file order, as trace_headers reports it.
    public static func frames(of path: String) throws -> [TracedFrame] {
        let result = try Tool.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-i", path, "-map", "0:v:0", "-c", "copy",
                "-bsf:v", "trace_headers", "-f", "null", "-",
            ])
        var frames: [TracedFrame] = []
        var current: TracedFrame? = nil
        var lastRefIdc = 0
        var lastType = 0
        for rawLine in result.stderr.split(separator: "\n") {
            guard let close = rawLine.range(of: "] ") else { continue }
            let line = rawLine[close.upperBound...]
            if line.hasPrefix("Packet:") {
                if let c = current { frames.append(c) }
                current = TracedFrame()
                continue
            }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4, let value = Int(fields[fields.count - 1]), fields[fields.count - 2] == "=" else {
                continue
            }
            switch fields[1] {
            case "nal_ref_idc": lastRefIdc = value
            case "nal_unit_type":
                lastType = value
                current?.nalUnitTypes.append(value)
                if value == 1 || value == 5, let ref = current?.nalRefIdc { current?.nalRefIdc = max(ref, lastRefIdc) }
            case "slice_type" where lastType == 1 || lastType == 5:
                if current?.sliceType == nil { current?.sliceType = value % 5 }
            case "temporal_id":
                current?.temporalID = value
            default: break
            }
        }
        if let c = current { frames.append(c) }
        return frames
    }
}

/// Counts as ffprobe sees them.
public enum FFprobe {
    /// Frames (decoding every one: `-count_frames`) or packets (`-count_packets`) of one stream.
    public static func count(_ path: String, stream: String = "v:0", decoding: Bool) throws -> Int {
        let what = decoding ? "frames" : "packets"
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", stream, "-count_\(what)", "-show_entries",
                "stream=nb_read_\(what)", "-of", "csv=p=0", path,
            ])
        return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
