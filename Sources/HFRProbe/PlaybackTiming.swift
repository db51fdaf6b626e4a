import HFRMedia

/// How a file's stream time relates to real (capture) time.
///
/// A stream that plays at P frames per second while its frames were captured at C per second is
/// slow motion when P < C: one second of the stream shows P/C seconds of real time. Source time in
/// the export time model is real time, so every stream time is scaled by this before the time map
/// applies (`streamScale`): 1 for a stream that plays in real time.
///
/// Which files are slowed, from what the header says (no packets read):
/// - hfr's own exports say exactly: `com.hfr.export.speed` holds the speed they were made with
///   (`0-@1/4` for a 4× conform), which is the scale when it is one speed throughout.
/// - hfr's recordings (`com.hfr.capture.fps` without export tags) play in real time, whatever
///   frames the camera dropped.
/// - Other files (Android's slow-motion recordings: a 30 fps stream tagged
///   `com.android.capture.fps` 120; its time-lapse ones: a 30 fps stream tagged 1) are retimed when
///   the tagged capture rate is at least 1.5× the rate the stream declares, or at most 1/1.5 of it;
///   the scale is exactly P/C. Between, a tag near the stream's own rate describes real-time
///   footage with an uneven or reduced frame rate.
public enum PlaybackTiming {
    /// The tag hfr's exports carry: the time map they were made with (`0-@1/4`, `0-2@1,2-@1/4`).
    public static let exportSpeedKey = "com.hfr.export.speed"

    /// Real seconds per stream second of the main video stream (`video`) of the file at `path`, from
    /// its tags (`tags`, the container's; a Samsung `smta` box) and the rate the stream declares; 1
    /// when it plays in real time.
    public static func streamScale(path: String, tags: [String: String], video: StreamInfo) -> Rational {
        guard let (capture, source) = Prober.declaredCaptureRate(path: path, tags: tags, streamTags: video.metadata)
        else {
            return Rational(1)
        }
        if let speed = constantExportSpeed(tags: tags, streamTags: video.metadata) { return speed }
        if source == .hfrTag, lookUp(exportSpeedKey, tags, video.metadata) == nil { return Rational(1) }
        guard let playback = declaredPlaybackRate(video) else { return Rational(1) }
        return retimedScale(capture: capture, playback: playback) ?? Rational(1)
    }

    /// P/C when a stream playing at `playback` fps shows frames captured at `capture` fps slowed
    /// down (C ≥ 1.5 P) or sped up (C ≤ P/1.5, a time-lapse); nil when it plays in real time.
    public static func retimedScale(capture: Rational, playback: Rational) -> Rational? {
        guard playback > Rational(0), capture > Rational(0) else { return nil }
        let isSlowed = capture * Rational(2) >= playback * Rational(3)
        let isTimeLapse = playback * Rational(2) >= capture * Rational(3)
        return isSlowed || isTimeLapse ? playback / capture : nil
    }

    /// The frame rate the stream says it plays at: the container's base rate (exact), else its
    /// average. When the two are far apart (a variable-rate stream: libavformat's base rate is the
    /// finest step of its timestamps, e.g. 120 for a phone's 30 fps VFR clip), the average.
    public static func declaredPlaybackRate(_ video: StreamInfo) -> Rational? {
        guard let base = video.realFrameRate else { return video.averageFrameRate }
        guard let average = video.averageFrameRate, average > Rational(0) else { return base }
        let isFarApart = base * Rational(4) > average * Rational(5) || average * Rational(4) > base * Rational(5)
        return isFarApart ? average : base
    }

    /// The speed of an hfr export made with one speed throughout (`0-@1/4` → 1/4).
    static func constantExportSpeed(tags: [String: String], streamTags: [String: String]) -> Rational? {
        guard let map = lookUp(exportSpeedKey, tags, streamTags), map.hasPrefix("0-@"), !map.contains(",") else {
            return nil
        }
        guard let speed = Rational(parsing: String(map.dropFirst(3))), speed > Rational(0) else { return nil }
        return speed
    }

    /// A tag by key, in any case (Matroska stores tag names in upper case), container tags first.
    static func lookUp(_ key: String, _ tags: [String: String], _ streamTags: [String: String]) -> String? {
        (tags.first { $0.key.lowercased() == key } ?? streamTags.first { $0.key.lowercased() == key })?.value
    }
}
