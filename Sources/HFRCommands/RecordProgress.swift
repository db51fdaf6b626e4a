import Foundation
import HFRCapture
import HFRMedia
import HFRPipeline

/// What `hfr record` says while it records: the mode at the start, then the stats line
/// `frame=710 fps=119.8 (target 120) time=5.92/8 s drops camera 0 late 0 queue 1/60 size=4.5 MB
/// bitrate=6.1 Mb/s` (live on a terminal, a line every few seconds in a log, none with `-q`).
/// `fps` is frames encoded per wall second over the last second; `time` is media time encoded
/// (frames / rate), out of `--duration` when given. With `--buffer ram` the queue's place says what
/// the buffer holds (`RAM 1.2 GiB of 8.0 GiB (380 frames)`), and once the capture ended the line
/// becomes `saving: 812 of 1440 frames encoded, 205.3 fps, 1.1 GiB held, ETA 0:03`.
final class RecordProgress {
    private let line: ProgressLine
    private let settings: RecordSettings
    /// The V4L2 device's card name, for the mode line.
    private let camera: String?
    private var isAnnounced = false
    /// The capture ended and the encoder is saving the frames the RAM buffer holds.
    private var isSaving = false
    /// Recent (wall time, frames encoded) samples, the oldest about a second old.
    private var recent: [(at: Date, frames: Int)] = []

    /// A triggered recording's triggers (the line counts what fired and the clips written).
    private let triggers: TriggerBoard?

    init(
        settings: RecordSettings, camera: String?, triggers: TriggerBoard? = nil,
        style: ProgressLine.Style = ProgressLine.style
    ) {
        self.settings = settings
        self.camera = camera
        self.triggers = triggers
        line = ProgressLine(style: style, prefix: "record: ")
    }

    var isQuiet: Bool { line.style == .quiet }

    /// The mode recorded, as the first frame is written (a source that fails to start leaves its
    /// one-line error alone): `record: test source 1280x720 yuv420p at 120 fps, 3 layers, 4.4 Mb/s →
    /// out.mp4`.
    private func announce() {
        guard !isQuiet, !isAnnounced else { return }
        isAnnounced = true
        let c = settings.capture
        let source: String
        var format = c.pixelFormat ?? "the driver's format"
        switch c.source {
        case .testPattern, .filterGraph:
            source = c.source.name
            format = c.pixelFormat ?? "yuv420p"
        case .device(let path): source = path + (camera.map { " (\($0))" } ?? "")
        }
        var text = "record: \(source) \(c.width)x\(c.height) \(format) at \(ModeSelector.rateText(c.frameRate)) fps, "
        text += "\(settings.temporalLayers) layer\(settings.temporalLayers == 1 ? "" : "s"), "
        text += "\(DecimalText.fixed(Double(settings.bitrate) / 1e6, digits: 1)) Mb/s"
        if let device = settings.audioDevice { text += ", audio from \(device.description)" }
        if let budget = settings.ramBudget { text += ", RAM buffer \(BufferArgument.gibibytes(budget))" }
        text += " → \(settings.output)\n"
        if line.style == .terminal {
            let stop = settings.ramBudget == nil ? "stops" : "stops the capture, saves the frames held"
            text += "Recording to \(settings.partialPath); Ctrl-C \(stop) and finalizes \(settings.output)\n"
        }
        Console.error(text)
    }

    /// What Ctrl-C and SIGTERM do and say while recording: the first finishes the file (or the open
    /// clip, or saves the frames in RAM first), the second stops at once and says what is kept.
    func signalPlan() -> SignalPlan {
        let prefix = ProgressLine.abortPrefix
        var plan = SignalPlan(.stop)
        if triggers != nil {
            // Clips: the open one (if any) is finished; a second signal leaves its partial file.
            plan.stopMessage =
                prefix + "hfr: stopping: finishing the open clip, if there is one (Ctrl-C again stops at once and "
                + "keeps what it has as NAME.partial.mp4)\n"
            plan.abortMessage =
                prefix + "hfr: second interrupt: stopped at once; a clip being written is kept as its .partial.mp4 "
                + "(fragmented MP4)\n"
            return plan
        }
        plan.abortCondition = settings.partialPath
        plan.abortOtherwise = prefix + "hfr: second interrupt: stopped at once\n"
        if settings.ramBudget != nil {
            plan.stopMessage =
                prefix + "hfr: stopping: saving the frames held in RAM, then finalizing \(settings.output) "
                + "(Ctrl-C again stops at once and keeps \(settings.partialPath) without them)\n"
            plan.abortMessage =
                prefix + "hfr: second interrupt: stopped at once; the frames saved so far are kept in "
                + "\(settings.partialPath) (fragmented MP4); those still in RAM and \(settings.output) "
                + "were not written\n"
            return plan
        }
        plan.stopMessage =
            prefix + "hfr: stopping: finalizing \(settings.output) (Ctrl-C again stops at once and keeps "
            + "\(settings.partialPath))\n"
        plan.abortMessage =
            prefix + "hfr: second interrupt: stopped at once; the recording so far is kept in "
            + "\(settings.partialPath) (fragmented MP4, all but its last half second); "
            + "\(settings.output) was not written\n"
        return plan
    }

    func show(_ stats: RecordStats, queueDepth: Int) {
        announce()
        let now = Date()
        let frames = stats.encoded.load(ordering: .relaxed)
        recent.append((now, frames))
        while recent.count > 2, now.timeIntervalSince(recent[1].at) >= 1 { recent.removeFirst() }
        let span = now.timeIntervalSince(recent[0].at)
        let fps = span > 0 ? Double(frames - recent[0].frames) / span : 0
        if settings.ramBudget != nil, stats.captureEndedAt.load(ordering: .relaxed) > 0 {
            // The first saving line is written at once, also to a log: the capture has ended.
            line.update(savingText(stats, frames: frames, fps: fps), force: !isSaving)
            isSaving = true
            return
        }
        line.update(text(stats, frames: frames, fps: fps, queueDepth: queueDepth))
    }

    /// `saving: 812 of 1440 frames encoded, 205.3 fps, 1.1 GiB held, ETA 0:03`: the encoder working through the
    /// frames the RAM buffer held when the capture ended.
    func savingText(_ stats: RecordStats, frames: Int, fps: Double) -> String {
        let kept = stats.captured.load(ordering: .relaxed) - stats.droppedLate.load(ordering: .relaxed)
        let eta = fps > 0 ? ProgressLine.clock(Double(max(0, kept - frames)) / fps) : "-"
        return "saving: \(frames) of \(kept) frames encoded, \(DecimalText.fixed(fps, digits: 1)) fps, "
            + "\(BufferArgument.gibibytes(stats.heldBytes.load(ordering: .relaxed))) held, ETA \(eta)"
    }

    func text(_ stats: RecordStats, frames: Int, fps: Double, queueDepth: Int) -> String {
        let rate = settings.capture.frameRate
        let seconds = (Rational(Int64(frames)) / rate).doubleValue
        let bytes = stats.bytes.load(ordering: .relaxed)
        let bitrate = seconds > 0 ? Double(bytes) * 8 / seconds / 1e6 : 0
        let dropped = stats.droppedBySource.load(ordering: .relaxed)
        let camera = dropped >= 0 ? dropped : stats.missingFromSource.load(ordering: .relaxed)
        var text = "frame=\(frames) fps=\(DecimalText.fixed(fps, digits: 1)) (target \(ModeSelector.rateText(rate))) "
        text += "time=\(DecimalText.fixed(seconds, digits: 2))"
        if let limit = settings.duration { text += "/\(limit.compactDescription)" }
        text += " s drops camera \(camera) late \(stats.droppedLate.load(ordering: .relaxed)) "
        if let budget = settings.ramBudget {
            let held = BufferArgument.gibibytes(stats.heldBytes.load(ordering: .relaxed))
            text += "RAM \(held) of \(BufferArgument.gibibytes(budget)) (\(queueDepth) frames) "
        } else {
            text += "queue \(queueDepth)/\(settings.queueCapacity) "
        }
        if let triggers {
            text += "triggers \(triggers.fired) clips \(triggers.clips)"
            if triggers.settings.kinds.contains(.motion) {
                text += " motion \(DecimalText.fixed(triggers.motionScore, digits: 1))%"
            }
        } else {
            text += "size=\(DecimalText.fixed(Double(bytes) / 1e6, digits: 1)) MB "
            text += "bitrate=\(DecimalText.fixed(bitrate, digits: 1)) Mb/s"
        }
        return text
    }

    /// Erases the live line (the summary takes its place).
    func clear() { line.clear() }

    /// Ends the live line, keeping it (an error follows it).
    func end() { line.end() }
}
