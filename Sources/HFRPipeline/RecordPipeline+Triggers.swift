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
        if kinds.contains(.motion) {
            video.motionDetector = MotionDetector(
                width: settings.capture.width, height: settings.capture.height, region: board.settings.motionRegion)
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
        var clips: [ClipReport] = []
        let outcome = runStages(input: input, audioDevice: audioDevice, video: video, audio: audio) { mux, level in
            clips = stage.run(mux, status: status, level: level)
            return nil
        }
        if let failure = outcome.encoderFailure { throw .encoder(failure) }
        if stats.encoded.load(ordering: .relaxed) == 0 {
            throw .nothingRecorded(outcome.capture.reason, cause: outcome.capture.failure)
        }
        var report = makeReport(
            outcome.capture, started: started, keptFragmented: false, audioSampleRate: audioSampleRate)
        report.ramBuffer = ramBufferUse(peak: outcome.bufferPeak, wallSeconds: report.wallSeconds)
        report.clips = clips
        report.ringPeakBytes = stage.peakRingBytes
        if let lost = outcome.capture.failure { throw .sourceLost(lost, report: report) }
        return report
    }
}
