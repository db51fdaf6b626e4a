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

    /// The plan's word on the programs left out: one note naming their tracks.
    static func notes(_ streams: [StreamInfo], video: StreamInfo) -> [String] {
        guard let main = video.programID else { return [] }
        let others = streams.filter { $0.programID.map { $0 != main } ?? false }
        let programs = Set(others.compactMap(\.programID)).sorted()
        return programs.map { id in
            let tracks = others.filter { $0.programID == id }.map { "#\($0.index) \($0.kind.rawValue)" }
            return "program \(id) (tracks \(tracks.joined(separator: ", "))) is left out: of the input's "
                + "\(programs.count + 1) programs the export writes the first video's, program \(main)"
        }
    }
}
