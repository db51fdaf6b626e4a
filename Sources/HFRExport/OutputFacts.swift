import HFRMedia

/// What the written file says about its video (read back from its header and index before the
/// rename, no packet pass): the summary and `--json` report these, and they must be what the
/// export meant — a file whose index disagrees with the export is a failure, never a success.
struct OutputFacts {
    /// Video frames the container lists; nil when it lists none (Matroska).
    let frames: Int?
    /// The video stream's duration in seconds, as players read it.
    let duration: Rational?

    static func read(_ path: String, videoStream index: Int) throws(ExportFailure) -> OutputFacts {
        let demuxer: Demuxer
        do {
            // The header is what is checked: no need to read (and decode) packets to open it.
            demuxer = try Demuxer(url: path, readsStreamInfo: false)
        } catch {
            throw .writing(error.during(.writingOutput))
        }
        guard demuxer.streams.indices.contains(index), demuxer.streams[index].kind == .video else {
            throw .processing("the written file has no video stream #\(index)")
        }
        let video = demuxer.streams[index]
        return OutputFacts(
            frames: video.declaredFrameCount > 0 ? Int(video.declaredFrameCount) : nil,
            duration: video.durationSeconds.flatMap { $0 > Rational(0) ? $0 : nil })
    }

    /// Refuses a file that does not hold `framesOut` frames, or (with `rate` when the frames are
    /// evenly spaced at it) whose duration is not that of the `shown` ones to within half a frame.
    /// Copied frames carry the input's timestamps (`isCopy`): a duration off then is the input's
    /// fault (65); re-encoded frames are timed by the export (an internal failure, 1).
    func check(framesOut: Int, shown: Int, rate: Rational?, isCopy: Bool) throws(ExportFailure) {
        if let frames, frames != framesOut {
            throw .processing("the written file lists \(frames) video frames where \(framesOut) were written")
        }
        guard let rate, let duration, shown > 1 else { return }
        let meant = Rational(Int64(shown)) / rate
        // A cut between frames (hidden frames before the range start) shows part of the frame it
        // falls in: up to one frame more than the whole frames shown.
        let extra = (duration - meant).doubleValue * rate.doubleValue
        guard extra > -0.5, extra < (shown < framesOut ? 1.5 : 0.5) else {
            let says = DecimalText.fixed(duration.doubleValue, digits: 3)
            let should = DecimalText.fixed(meant.doubleValue, digits: 3)
            let fault =
                "the written file says \(says) s for \(shown) frames at \(rate.compactDescription) fps (\(should) s)"
            throw isCopy ? .badInput("corrupt timestamps: \(fault)") : .processing(fault)
        }
    }
}
