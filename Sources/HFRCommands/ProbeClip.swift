import HFRMedia
import HFRPipeline

/// What `hfr probe` says of a clip `hfr record --trigger` wrote: its triggers (seconds from the
/// clip's start) and when its first frame was captured, from its tags (`ClipTags`).
struct ProbeClip {
    let triggers: [TriggerEvent]
    let firstFrameTime: String?

    /// From a file's tags; Matroska's names are upper case (FFmpeg writes them so).
    init?(tags: [String: String]) {
        func tag(_ key: String) -> String? { tags.first { $0.key.lowercased() == key }?.value }
        guard let text = tag(ClipTags.triggersKey), let triggers = ClipTags.triggers(from: text) else { return nil }
        self.triggers = triggers
        firstFrameTime = tag(ClipTags.firstFrameTimeKey)
    }

    /// `Clip: trigger motion at 1.000 s; first frame captured 2026-12-05T18:26:46.473076Z`.
    var line: String {
        var text = "Clip: trigger" + (triggers.count == 1 ? " " : "s ")
        text += TriggerText.list(triggers)
        if let firstFrameTime { text += "; first frame captured \(firstFrameTime)" }
        return text
    }

    var json: JSONValue {
        .object([
            ("triggers", TriggerText.json(triggers)),
            ("firstFrameTime", .optional(firstFrameTime.map { .string($0) })),
        ])
    }
}
