/// The tags a split batch job's units carry for the join (`hfr batch`, `"split"`): where each
/// unit's video stands on the whole job's output timeline, as exact rationals. The join reads
/// them and leaves them out of the output it writes.
public enum SplitTags {
    /// Output seconds, on the whole job's time map, where the unit's range starts.
    public static let start = "com.hfr.split.start"
    /// The rest unit's: output seconds the video starts after the audio (audio recorded before
    /// the first frame, kept).
    public static let videoDelay = "com.hfr.split.video-delay"

    /// Whether `key` is one of these (Matroska's tags read back in capitals).
    public static func isSplitTag(_ key: String) -> Bool { key.lowercased().hasPrefix("com.hfr.split.") }

    /// The rational a tag holds (`Rational.description`), nil when absent or not one; the key
    /// matched regardless of case, as Matroska stores tag names in capitals.
    public static func value(_ key: String, in tags: [String: String]) -> Rational? {
        let wanted = key.lowercased()
        return tags.first { $0.key.lowercased() == wanted }.flatMap { Rational(parsing: $0.value) }
    }
}
