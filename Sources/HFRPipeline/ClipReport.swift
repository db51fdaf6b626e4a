import HFRMedia

/// One clip a triggered recording wrote.
public struct ClipReport: Sendable {
    public var path: String
    /// Where the clip's picture starts and ends, in seconds from the recording's first frame.
    public var start: Rational
    public var end: Rational
    public var frames: Int
    /// Empty frame slots among them (the camera's drops, or late ones): `frames + missingFrames`
    /// slots from the start to the last frame.
    public var missingFrames: Int
    /// The triggers inside it, their times in seconds from the clip's start.
    public var triggers: [TriggerEvent]
    /// The wall-clock time of its first shown frame (CLOCK_REALTIME, µs since 1970), if known.
    public var firstFrameWallMicroseconds: Int64?
    /// Set when the clip could not be finished (disk full …): why.
    public var failure: String?

    public var duration: Rational { end - start }
}

/// The tags a clip carries (hfr probe reads them back): its triggers and when its first frame was
/// captured.
public enum ClipTags {
    /// `motion@1.000000 signal@1.750000`: each trigger's kind and seconds from the clip's start.
    public static let triggersKey = "com.hfr.triggers"
    /// `2026-12-05T18:30:01.123456Z`: the first shown frame's wall-clock time, to the microsecond.
    public static let firstFrameTimeKey = "com.hfr.first-frame-time"

    static func tags(_ clip: ClipReport) -> [(key: String, value: String)] {
        var tags = [(key: triggersKey, value: triggersText(clip.triggers))]
        if let wall = clip.firstFrameWallMicroseconds { tags.append((firstFrameTimeKey, timeText(wall))) }
        return tags
    }

    public static func triggersText(_ triggers: [TriggerEvent]) -> String {
        triggers.map { "\($0.kind.rawValue)@\(DecimalText.fixed($0.time, digits: 6))" }.joined(separator: " ")
    }

    /// Reads `triggersText` back; nil when it is not one.
    public static func triggers(from text: String) -> [TriggerEvent]? {
        var events: [TriggerEvent] = []
        for word in text.split(separator: " ") {
            let parts = word.split(separator: "@")
            guard parts.count == 2, let kind = TriggerKind(rawValue: String(parts[0])),
                let time = Rational(parsing: String(parts[1]))
            else { return nil }
            events.append(TriggerEvent(time: time, kind: kind))
        }
        return events
    }

    /// ISO 8601 UTC to the microsecond.
    public static func timeText(_ microseconds: Int64) -> String {
        let seconds = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let whole = HFRVersion.creationTimeText(secondsSince1970: seconds.quotient)
        let digits = String(seconds.remainder)
        return whole.prefix(19) + "." + String(repeating: "0", count: 6 - digits.count) + digits + "Z"
    }
}
