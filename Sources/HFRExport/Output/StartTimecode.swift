import HFRMedia

/// The input's start timecode (its MOV `tmcd` track's, else the video's or the file's tag) moved
/// to the export's start and counted at the output rate; or why it is left out.
struct StartTimecode: Sendable {
    /// The timecode for the output's video stream; nil when the input has none or it cannot be moved.
    let value: String?
    /// Why a timecode the input has is left out.
    let note: String?

    static func choose(
        streams: [StreamInfo], metadata: [String: String], video: StreamInfo, plan: ExportPlan
    ) -> StartTimecode {
        let track = streams.first { $0.isTimecode && $0.metadata.timecode != nil }
        guard let value = track?.metadata.timecode ?? video.metadata.timecode ?? metadata.timecode else {
            return StartTimecode(value: nil, note: nil)
        }
        let rate = track?.averageFrameRate ?? video.averageFrameRate ?? plan.captureRate
        if let moved = Timecode.convert(value, rate: rate, advancedBy: plan.start, to: plan.outputRate) {
            return StartTimecode(value: moved, note: nil)
        }
        return StartTimecode(
            value: nil, note: "the timecode \(value) is left out: it cannot be counted at \(plan.outputRate) fps")
    }
}

extension StreamInfo {
    /// A MOV timecode track.
    var isTimecode: Bool { codecTag == "tmcd" }
}

extension [String: String] {
    /// The `timecode` tag, however the container spells it (Matroska: `TIMECODE`).
    fileprivate var timecode: String? { first { $0.key.lowercased() == "timecode" }?.value }
}
