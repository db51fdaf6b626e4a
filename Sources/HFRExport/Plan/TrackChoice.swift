import HFRMedia

/// Which of the input's tracks besides the video an export can write: those of the video's program
/// (an MPEG-TS whose programs follow one another, PIDs that change half-way, carries the file's
/// main timeline in the first video's program; the others play over the same times later in the
/// file). Every track left out is named with its reason. An audio track of the video's program
/// with no parameters (0 Hz, no channels: an AAC configuration no decoder reads, a PID that appears
/// half-way) is not left out: it is the input's fault, refused (65) where its decoder opens
/// (`AudioOutput.requireDescribed`).
enum TrackChoice {
    /// The audio tracks the export writes, in stream order.
    static func audio(_ streams: [StreamInfo], video: StreamInfo) -> [StreamInfo] {
        streams.filter { $0.kind == .audio && leftOutReason($0, video: video) == nil }
    }

    /// Why `track` cannot be written with `video`; nil when it can.
    static func leftOutReason(_ track: StreamInfo, video: StreamInfo) -> String? {
        if let other = track.programID, let main = video.programID, other != main {
            return "in program \(other), not the exported video's program \(main) "
                + "(an MPEG-TS whose programs follow one another: only the first video's program is exported)"
        }
        return nil
    }
}
