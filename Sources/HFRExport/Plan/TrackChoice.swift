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

    /// The plan's word on the programs left out: one note naming their tracks.
    static func notes(_ streams: [StreamInfo], video: StreamInfo) -> [String] {
        let unknown = streams.filter { $0.kind == .audio && $0.programID == video.programID }.compactMap { s in
            leftOutReason(s, video: video).map { "audio track #\(s.index) (\(s.codecName)) is left out: \($0)" }
        }
        guard let main = video.programID else { return unknown }
        let others = streams.filter { $0.programID.map { $0 != main } ?? false }
        let programs = Set(others.compactMap(\.programID)).sorted()
        return unknown
            + programs.map { id in
                let tracks = others.filter { $0.programID == id }.map { "#\($0.index) \($0.kind.rawValue)" }
                return "program \(id) (tracks \(tracks.joined(separator: ", "))) is left out: of the input's "
                    + "\(programs.count + 1) programs the export writes the first video's, program \(main)"
            }
    }
}
