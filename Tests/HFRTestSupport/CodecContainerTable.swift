import Foundation

/// What `hfr export` must do with each `--codec` into each output extension at each `--quality`
/// (issue 42), stated from FFmpeg 5.1's muxers and encoders rather than from hfr's code: the export
/// is written, or refused with exit 64 before any work in the one sentence given here.
public enum CodecContainerTable {
    /// Every value `--codec` takes.
    public static let codecs = ["h264", "hevc", "av1", "vp9", "prores", "ffv1", "openh264"]
    /// Output extensions: the four hfr writes, two it refuses.
    public static let extensions = ["mp4", "mov", "mkv", "webm", "avi", "ts"]
    /// `--quality` values inside and outside each encoder's limits (nil: none given).
    public static let qualities: [String?] = [
        nil, "crf:0", "crf:23", "crf:51", "crf:52", "crf:63", "crf:64", "bitrate:1M", "lossless",
    ]

    /// The containers that hold each codec, in the order messages list them: MOV refuses VP9 and
    /// AV1 ("only supported in MP4"), MP4 has no ProRes or FFV1 tag (MOV only a Windows one, "may be
    /// unplayable"), WebM takes VP8, VP9, AV1 only.
    public static let holders: [String: [String]] = [
        "h264": ["mp4", "mov", "mkv"], "openh264": ["mp4", "mov", "mkv"], "hevc": ["mp4", "mov", "mkv"],
        "av1": ["mp4", "mkv", "webm"], "vp9": ["mp4", "mkv", "webm"], "prores": ["mov", "mkv"], "ffv1": ["mkv"],
    ]

    static let names = [
        "h264": "H.264", "hevc": "HEVC", "av1": "AV1", "vp9": "VP9", "prores": "ProRes", "ffv1": "FFV1",
        "openh264": "H.264 (OpenH264, layered)",
    ]
    static let containerNames = ["mp4": "MP4", "mov": "MOV", "mkv": "MKV", "webm": "WebM"]

    /// The codec ffprobe names in an output written with `--codec codec`.
    public static func codecName(_ codec: String) -> String { codec == "openh264" ? "h264" : codec }

    /// The line (after "Error: ") that refuses `--codec codec` into `output` (extension `ext`) at
    /// `quality`; nil when the export is written. Checked in the order the command checks: the
    /// option's syntax, the container, the codec in it, the quality for the codec.
    public static func refusal(codec: String, ext: String, quality: String?, output: String) -> String? {
        if quality == "crf:64" {
            return "--quality must be crf:N (0-63), bitrate:B (bits per second: 8M, 2500k) or lossless, not 'crf:64'"
        }
        guard let name = containerNames[ext] else {
            return "\(output): unknown container (.\(ext)); hfr writes .mp4, .mov, .mkv or .webm"
        }
        let holding = holders[codec]!
        guard holding.contains(ext) else {
            let dotted = holding.map { "." + $0 }
            let list = dotted.count < 2 ? dotted[0] : dotted.dropLast().joined(separator: ", ") + " or " + dotted.last!
            return "--codec \(codec): \(names[codec]!) video cannot be written to \(name) (\(output)); use \(list)"
        }
        // The quality is named as hfr reads it (bitrate:1M is 1,000,000 bits per second).
        return quality.flatMap { q in
            qualityRefusal(codec: codec, quality: q).map {
                "--quality \(q.replacingOccurrences(of: "1M", with: "1000000")): \($0)"
            }
        }
    }

    /// Why `codec`'s encoder cannot take `quality`: x264 and x265 stop at crf 51, VP9 and AV1 at 63;
    /// ProRes has no quality setting, FFV1 is lossless only, OpenH264 takes a bitrate only.
    public static func qualityRefusal(codec: String, quality: String) -> String? {
        let crf = quality.hasPrefix("crf:") ? Int(quality.dropFirst(4)) : nil
        switch codec {
        case "prores":
            return "ProRes sets its quality by profile (422 HQ, 4444 for 4:4:4 pictures): leave --quality out"
        case "ffv1":
            return quality == "lossless" ? nil : "FFV1 is lossless only: give --quality lossless or leave it out"
        case "openh264":
            return quality.hasPrefix("bitrate:") ? nil : "OpenH264 (layered) takes --quality bitrate:B only"
        case "h264": return crf.map { $0 > 51 } == true ? "H.264 (libx264) takes crf:0 to crf:51" : nil
        case "hevc": return crf.map { $0 > 51 } == true ? "HEVC (libx265) takes crf:0 to crf:51" : nil
        default: return nil
        }
    }
}
