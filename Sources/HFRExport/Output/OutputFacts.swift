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
    /// evenly spaced at it) whose shown frames do not start `1/rate` apart or whose duration does
    /// not end where the last one the export wrote ends. That frame lasts what its source frame
    /// lasted, scaled (an FFmpeg mux of a raw stream gives it 40 ms at 120 fps): up to
    /// `longestLastFrame` output seconds, else its duration is taken as damaged. Copied frames carry
    /// the input's timestamps (`isCopy`): a mismatch then is the input's fault (65); re-encoded
    /// frames are timed by the export (an internal failure, 1).
    func check(
        framesOut: Int, shown: Int, rate: Rational?, written: FrameTally, longestLastFrame: Rational, isCopy: Bool
    ) throws(ExportFailure) {
        if let frames, frames != framesOut {
            throw .processing("the written file lists \(frames) video frames where \(framesOut) were written")
        }
        guard let rate, shown > 1, let first = written.firstStart, let last = written.lastShown else { return }
        // Matroska lists no duration for a stream: the frames' spacing is checked all the same.
        let duration = self.duration ?? last.end - first
        func seconds(_ t: Rational) -> String { DecimalText.fixed(t.doubleValue, digits: 3) }
        func fault(_ text: String) -> ExportFailure {
            isCopy ? .badInput("corrupt timestamps: \(text)") : .processing(text)
        }
        // Shown frames start one period apart; a cut between frames (hidden frames before the range
        // start) shows part of the frame it falls in: up to one period more.
        let slack = shown < framesOut ? 1.5 : 0.5
        let steps = (last.start - first).doubleValue * rate.doubleValue - Double(shown - 1)
        let lastFrame = last.end - last.start
        let ends = (first + duration - last.end).doubleValue * rate.doubleValue
        guard steps > -0.5, steps < slack, ends > -0.5, ends < slack,
            lastFrame <= max(longestLastFrame, Rational(3, 2) / rate)
        else {
            throw fault(
                "the written file says \(seconds(duration)) s for \(shown) frames at \(rate.compactDescription) fps "
                    + "(\(seconds(Rational(Int64(shown - 1)) / rate)) s to the last one, which lasts \(seconds(lastFrame)) s)"
            )
        }
    }
}
