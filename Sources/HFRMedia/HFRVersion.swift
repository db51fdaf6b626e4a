import Foundation

/// hfr's version, and the tags that say which hfr wrote a file and when it was made.
public enum HFRVersion {
    /// `hfr --version`; `HFR.version` is this.
    public static let number = "0.1.0"

    /// The `encoder` tag (in place of libavformat's `Lavf…`) and `com.hfr.version`, plus
    /// `creation_time` as ffmpeg writes it (UTC, ISO 8601 with microseconds).
    public static func tags(creationTime: String) -> [(key: String, value: String)] {
        [
            ("creation_time", creationTime), ("encoder", "hfr \(number)"),
            ("com.hfr.version", number),
        ]
    }

    /// `2026-12-01T21:10:13.000000Z`: ffmpeg's `creation_time` form (whole seconds: MP4's `mvhd`
    /// holds no more).
    public static func creationTimeText(secondsSince1970 seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        return text + ".000000Z"
    }
}
