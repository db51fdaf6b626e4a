import Foundation
import HFRCapture
import HFRMedia

extension RecordPipeline {
    /// A triggered recording: the stages run as for one file, but the packets go to a
    /// `ClipStage` (the pre-trigger ring and a clip per trigger window) instead of one file.
    func runTriggered(
        _ board: TriggerBoard, input: any FrameSource, audioDevice: AudioCaptureInput?,
        video: sending VideoEncodeStage, audio: sending AudioEncodeStage?, started: Date,
        status: ((RecordStats, Int) -> Void)?
    ) throws(RecordFailure) -> RecordReport {
        let kinds = board.settings.kinds
        let motion =
            kinds.contains(.motion)
            ? MotionDetector(
                width: settings.capture.width, height: settings.capture.height, region: board.settings.motionRegion)
            : nil
        // With `--buffer ram` the ring holds raw frames and only clips are encoded; else it holds
        // the encoded stream.
        let forwarded = Locked<[TriggerEvent]>([])
        let rawRing = settings.ramBudget.map { _ in
            RawTriggerRing(board: board, inputTimeBase: input.videoTimeBase, motion: motion, forwarded: forwarded)
        }
        if rawRing != nil {
            video.keyframeAfterGaps = true
        } else if let motion {
            video.motionDetector = motion
            video.motionBoard = board
        }
        if kinds.contains(.audio) { audio?.levelTrigger = board }
        let format: ClipStage.Format
        do throws(EncoderFailure) {
            format = ClipStage.Format(
                width: settings.capture.width, height: settings.capture.height,
                parameterSets: try video.parameterSets(), videoTimeBase: video.outputTimeBase,
                audio: try audio.map { a throws(EncoderFailure) in
                    let f = try a.format()
                    return (f.parameters, f.timeBase, Int64(a.encoder.initialPadding))
                })
        } catch {
            throw .encoder(error)
        }
        let audioSampleRate = audio?.sampleRate
        let stage = ClipStage(
            settings: settings, board: board, format: format, stats: stats, force: force, stop: { [self] in stop() })
        if rawRing != nil {
            // The clip stage cuts the windows the ring let through, from the triggers it took.
            stage.events = {
                forwarded.withLock { f in
                    defer { f.removeAll() }
                    return f
                }
            }
        }
        var clips: [ClipReport] = []
        let outcome = runStages(
            input: input, audioDevice: audioDevice, video: video, audio: audio, rawRing: rawRing
        ) { mux, level in
            clips = stage.run(mux, status: status, level: level)
            return nil
        }
        return try triggeredReport(
            outcome, clips: clips, board: board, ringPeakBytes: stage.peakRingBytes, started: started,
            audioSampleRate: audioSampleRate)
    }

    /// The report of a triggered recording whose stages have ended, or what failed.
    private func triggeredReport(
        _ outcome: StagesOutcome, clips: [ClipReport], board: TriggerBoard, ringPeakBytes: Int, started: Date,
        audioSampleRate: Int?
    ) throws(RecordFailure) -> RecordReport {
        if let failure = outcome.encoderFailure { throw .encoder(failure) }
        // Nothing captured is no recording; captured frames no trigger asked for are one.
        if stats.captured.load(ordering: .relaxed) == 0 {
            throw .nothingRecorded(outcome.capture.reason, cause: outcome.capture.failure)
        }
        var capture = outcome.capture
        if let limit = board.settings.clipLimit, clips.count >= limit, capture.reason == .signal,
            !Signals.isStopRequested
        {
            capture.reason = .clips
        }
        var report = makeReport(capture, started: started, keptFragmented: false, audioSampleRate: audioSampleRate)
        complete(&report, outcome, audioSampleRate: audioSampleRate)
        report.clips = clips
        report.ringPeakBytes = max(ringPeakBytes, board.rawRingPeakBytes)
        if let lost = outcome.capture.failure { throw .sourceLost(lost, report: report) }
        return report
    }
}
