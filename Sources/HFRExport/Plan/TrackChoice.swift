import HFRMedia

/// Which of the input's tracks besides the video an export can write: those of the video's program
/// (an MPEG-TS whose programs follow one another, PIDs that change half-way, carries the file's
/// main timeline in the first video's program; the others play over the same times later in the
/// file) and, for audio, those whose parameters are known (a sample rate and channels: a track
/// whose packets FFmpeg never configured has none). Every track left out is named with its reason.
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
        if track.kind == .audio, track.sampleRate <= 0 || track.channels <= 0 {
            return "its parameters are unknown (no sample rate or channels): no decoder can be opened for it"
        }
        return nil
    }
}
