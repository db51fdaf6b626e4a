import Foundation

/// What one ffprobe run reads of a file (`arguments`, JSON): every stream's entries as text, the
/// format's duration, the packets of its first video stream and, with `-count_frames`, how many
/// frames of that stream decode. One run instead of one per question: starting ffprobe costs about
/// 0.1 s of CPU (the dynamic linker binding Debian FFmpeg's libraries), about 2 s in the emulated
/// VM guest.
public struct FFprobeReading {
    /// Each stream's entries (`codec_type`, `codec_name`, `sample_rate`, `start_time`, `duration`,
    /// `r_frame_rate`, `width`, `height`, `color_range`, `nb_read_frames`), as text.
    public private(set) var streams: [[String: String]] = []
    /// The format's duration in seconds; -1 when absent.
    public private(set) var duration = -1.0
    /// The first video stream's packets in file order: pts, dts and duration in seconds (Matroska
    /// stores no dts: none for the first packets of a B-frame stream).
    public private(set) var videoPackets: [(pts: Double, dts: Double?, duration: Double?)] = []
    /// Frames of the first video stream that decoded (`decoding`); -1 when not counted.
    public private(set) var decodedFrames = -1

    /// ffprobe's arguments for `path`; `decoding` decodes every frame of every stream as it reads
    /// (`-count_frames`), so that its stderr holds the decoders' errors.
    public static func arguments(_ path: String, decoding: Bool) -> [String] {
        [
            "-v", "error", "-of", "json", "-show_entries",
            "stream=index,codec_type,codec_name,sample_rate,start_time,duration,r_frame_rate,width,height,"
                + "color_range,nb_read_frames:format=duration:packet=stream_index,pts_time,dts_time,duration_time",
        ] + (decoding ? ["-count_frames"] : []) + [path]
    }

    /// Reads ffprobe's output for `arguments`; empty when it is not JSON.
    public init(json text: String) {
        let json = (try? Tool.json(text)) ?? [:]
        streams = (json["streams"] as? [[String: Any]] ?? []).map { $0.mapValues { "\($0)" } }
        duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? -1
        let video = streams.first { $0["codec_type"] == "video" }
        decodedFrames = Int(video?["nb_read_frames"] ?? "") ?? -1
        let index = video?["index"] ?? "-"
        videoPackets = (json["packets"] as? [[String: Any]] ?? []).compactMap { packet in
            guard "\(packet["stream_index"] ?? "")" == index, let pts = Double(packet["pts_time"] as? String ?? "")
            else { return nil }
            return (pts, Double(packet["dts_time"] as? String ?? ""), Double(packet["duration_time"] as? String ?? ""))
        }
    }

    /// The first video stream's presentation times, ascending.
    public var times: [Double] { videoPackets.map(\.pts).sorted() }

    /// An entry of the first stream of `type` (`video`, `audio`); "" when there is none.
    public func entry(_ type: String, _ name: String) -> String {
        streams.first { $0["codec_type"] == type }?[name] ?? ""
    }
}
