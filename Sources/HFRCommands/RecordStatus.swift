import HFRCapture
import HFRMedia
import HFRPipeline

#if canImport(Glibc)
    import Glibc
#endif

/// What `hfr record` prints at the end: the summary, `--json`, and errors (`RecordProgress`: the live line).
enum RecordStatus {
    /// Which code captured and where the drop figures come from (`capture` in --json).
    struct CaptureFacts {
        /// `own` (hfr's V4L2 capture), `avdevice` (libavdevice's v4l2 input), `lavfi` (the test source
        /// or a filter graph).
        let api: String
        /// `sequence-numbers` (`v4l2_buffer.sequence`) or `timestamp-gaps` (gaps in the frame times).
        let dropsFrom: String
        /// What `--exposure antiflicker` chose on the camera.
        var antiFlicker: AntiFlicker.Choice?

        init(source: CaptureSource, api: CaptureAPI) {
            switch (source, api) {
            case (.testPattern, _), (.filterGraph, _): (self.api, dropsFrom) = ("lavfi", "timestamp-gaps")
            case (.device, .own): (self.api, dropsFrom) = ("own", "sequence-numbers")
            case (.device, .avdevice): (self.api, dropsFrom) = ("avdevice", "timestamp-gaps")
            }
        }
    }

    static func summary(_ r: RecordReport, capture: CaptureFacts) -> String {
        if let clips = r.clips { return triggeredSummary(r, clips: clips, capture: capture) }
        let layers = r.framesPerLayer.enumerated().map { "L\($0.offset) \($0.element)" }.joined(separator: ", ")
        return "Recorded \(r.output): \(r.framesEncoded) frames \(r.width)x\(r.height) @ "
            + "\(ProbeText.rate(r.frameRate)) fps (\(DecimalText.fixed(r.videoDuration.doubleValue, digits: 3)) s), "
            + "\(r.temporalLayers) layers (\(layers)), dropped \(r.framesDroppedLate) late, "
            + RecordStatus.losses(r, capture: capture)
            + "\(DecimalText.fixed(Double(r.bytes) / 1e6, digits: 1)) MB, stopped by \(r.stopReason.rawValue), "
            + "\(DecimalText.fixed(r.wallSeconds, digits: 1)) s wall (\(DecimalText.fixed(r.achievedFPS, digits: 1)) fps)"
            + (r.ramBuffer.map(ramBuffer) ?? "") + notes(r)
    }

    /// What went short, appended to the summary line: audio that stopped before the video, a source
    /// slower than asked.
    static func notes(_ r: RecordReport) -> String {
        var text = ""
        if let a = r.audioShortfall {
            let at = DecimalText.fixed(a.at.doubleValue, digits: 3)
            let cause =
                switch a.cause {
                case .endOfSource: "its source delivered no more"
                case .sourceError: "reading its source failed: \(a.failure ?? "")"
                case .encoderError: "the encoder failed: \(a.failure ?? "")"
                }
            text +=
                "; audio stopped at \(at) s (\(cause)); "
                + (a.isPadded ? "padded with silence to the end of the video" : "the audio track ends there")
        }
        if let slow = r.slowSource { text += "; slow source: \(slow.warning)" }
        return text
    }

    /// "; RAM buffer: at most 1.2 GiB of 8.0 GiB (380 frames), saved in 3.1 s after a 6.0 s capture".
    static func ramBuffer(_ b: RAMBufferUse) -> String {
        "; RAM buffer: at most \(BufferArgument.gibibytes(b.peakBytes)) of \(BufferArgument.gibibytes(b.budgetBytes)) "
            + "(\(b.peakFrames) frames), saved in \(DecimalText.fixed(b.savingSeconds, digits: 1)) s after a "
            + "\(DecimalText.fixed(b.captureSeconds, digits: 1)) s capture"
    }

    /// A triggered recording: what was captured and fired, then a line per clip.
    static func triggeredSummary(_ r: RecordReport, clips: [ClipReport], capture: CaptureFacts) -> String {
        var text =
            "Recorded \(clips.count) clip\(clips.count == 1 ? "" : "s") (\(r.output)) from \(r.framesCaptured) frames "
            + "\(r.width)x\(r.height) @ \(ProbeText.rate(r.frameRate)) fps captured "
            + "(\(DecimalText.fixed((Rational(Int64(r.framesCaptured)) / r.frameRate).doubleValue, digits: 3)) s)"
            + (r.framesEncoded < r.framesCaptured ? ", \(r.framesEncoded) encoded" : "")
            + ", dropped \(r.framesDroppedLate) late, "
            + losses(r, capture: capture) + "pre-trigger ring at most "
            + "\(DecimalText.fixed(Double(r.ringPeakBytes ?? 0) / 1e6, digits: 1)) MB, stopped by \(r.stopReason.rawValue), "
            + "\(DecimalText.fixed(r.wallSeconds, digits: 1)) s wall" + notes(r)
        if clips.isEmpty { text += "\nNo trigger fired: nothing was kept" }
        for clip in clips {
            text += "\n  \(clip.path): "
            if let failure = clip.failure {
                text += "not written (\(failure))"
                continue
            }
            text += "\(DecimalText.fixed(clip.duration.doubleValue, digits: 3)) s, \(clip.frames) frames, "
            if clip.missingFrames > 0 { text += "\(clip.missingFrames) missing (dropped), " }
            text += "trigger"
            text += clip.triggers.count == 1 ? " " : "s "
            text += TriggerText.list(clip.triggers)
            if let wall = clip.firstFrameWallMicroseconds { text += ", first frame \(ClipTags.timeText(wall))" }
        }
        return text
    }

    /// "camera dropped 3 (sequence numbers), 1 corrupt skipped, " — what the source lost; a camera
    /// read through libavdevice: "camera dropped 2 (timestamp gaps, libavdevice's v4l2 input), ".
    static func losses(_ r: RecordReport, capture: CaptureFacts) -> String {
        guard let l = r.sourceLosses else {
            if capture.api == "avdevice" {
                return "camera dropped \(r.framesMissingFromSource) (timestamp gaps, libavdevice's v4l2 input), "
            }
            return r.framesMissingFromSource > 0 ? "source skipped \(r.framesMissingFromSource), " : ""
        }
        var text = "camera dropped \(l.dropped) (sequence numbers), "
        if l.corrupt > 0 { text += "\(l.corrupt) corrupt skipped, " }
        if l.timestampDiscontinuities > 0 { text += "\(l.timestampDiscontinuities) timestamp jumps, " }
        if l.repeated > 0 { text += "\(l.repeated) repeated sequence numbers skipped, " }
        return text
    }

    static func json(_ r: RecordReport, capture: CaptureFacts) -> JSONValue {
        .object([
            ("schema", "hfr.record/1"),
            ("output", .string(r.output)),
            ("stopReason", .string(r.stopReason.rawValue)),
            ("width", .int(Int64(r.width))),
            ("height", .int(Int64(r.height))),
            ("frameRate", .string(r.frameRate.description)),
            ("temporalLayers", .int(Int64(r.temporalLayers))),
            ("sourcePixelFormat", .optional(r.sourcePixelFormat.map { .string($0) })),
            ("framesCaptured", .int(Int64(r.framesCaptured))),
            ("framesEncoded", .int(Int64(r.framesEncoded))),
            ("framesDroppedLate", .int(Int64(r.framesDroppedLate))),
            ("framesMissingFromSource", .int(Int64(r.framesMissingFromSource))),
            ("framesDroppedByDevice", .optional(r.sourceLosses.map { .int(Int64($0.dropped)) })),
            ("framesCorrupt", .optional(r.sourceLosses.map { .int(Int64($0.corrupt)) })),
            ("timestampDiscontinuities", .optional(r.sourceLosses.map { .int(Int64($0.timestampDiscontinuities)) })),
            ("framesRepeatedByDevice", .optional(r.sourceLosses.map { .int(Int64($0.repeated)) })),
            ("framesPerLayer", .array(r.framesPerLayer.map { .int(Int64($0)) })),
            ("videoDuration", .double(r.videoDuration.doubleValue)),
            ("audioSamples", .int(Int64(r.audioSamples))),
            ("audioSampleRate", .optional(r.audioSampleRate.map { .int(Int64($0)) })),
            ("bytes", .int(r.bytes)),
            ("wallSeconds", .double(r.wallSeconds)),
            ("achievedFps", .double(r.achievedFPS)),
            ("maxQueueDepth", .int(Int64(r.maxQueueDepth))),
            ("queueCapacity", .int(Int64(r.queueCapacity))),
            ("keptFragmented", .bool(r.keptFragmented)),
            (
                "buffer",
                .optional(
                    r.ramBuffer.map { b in
                        .object([
                            ("kind", "ram"),
                            ("budgetBytes", .int(Int64(b.budgetBytes))),
                            ("peakBytes", .int(Int64(b.peakBytes))),
                            ("peakFrames", .int(Int64(b.peakFrames))),
                            ("captureSeconds", .double(b.captureSeconds)),
                            ("savingSeconds", .double(b.savingSeconds)),
                        ])
                    })
            ),
            ("capture", .object([("api", .string(capture.api)), ("dropsFrom", .string(capture.dropsFrom))])),
            ("antiflicker", .optional(capture.antiFlicker.map(antiFlickerJSON))),
            ("audioStopped", .optional(r.audioShortfall.map(audioShortfallJSON))),
            ("audioSilence", .double(r.audioSilence.doubleValue)),
            ("slowSource", .optional(r.slowSource.map(slowSourceJSON))),
            ("clips", .optional(r.clips.map { .array($0.map(clipJSON)) })),
            ("preTriggerPeakBytes", .optional(r.ringPeakBytes.map { .int(Int64($0)) })),
        ])
    }

    static func slowSourceJSON(_ slow: SlowSource) -> JSONValue {
        .object([
            ("deliveredFps", .double(slow.deliveredFPS)),
            ("noticedAfter", .double(slow.noticedAfter)),
            ("warning", .string(slow.warning)),
        ])
    }

    static func antiFlickerJSON(_ a: AntiFlicker.Choice) -> JSONValue {
        .object([
            ("mains", .optional(a.mains.map { .int(Int64($0)) })),
            ("method", .string(a.method.rawValue)),
            ("exposureSeconds", .optional(a.exposure.map { .double($0.doubleValue) })),
            ("exposure", .optional(a.exposure.map { .string($0.description) })),
            ("periods", .optional(a.periods.map { .int(Int64($0)) })),
            ("note", .string(a.text)),
            ("warning", .bool(a.isWarning)),
        ])
    }

    static func audioShortfallJSON(_ a: AudioShortfall) -> JSONValue {
        .object([
            ("at", .double(a.at.doubleValue)),
            ("cause", .string(a.cause.rawValue)),
            ("track", .string(a.isPadded ? "padded-with-silence" : "ends-there")),
            ("failure", .optional(a.failure.map { .string($0) })),
        ])
    }

    static func clipJSON(_ clip: ClipReport) -> JSONValue {
        .object([
            ("path", .string(clip.path)),
            ("start", .double(clip.start.doubleValue)),
            ("duration", .double(clip.duration.doubleValue)),
            ("frames", .int(Int64(clip.frames))),
            ("framesMissing", .int(Int64(clip.missingFrames))),
            ("triggers", TriggerText.json(clip.triggers)),
            ("firstFrameTime", .optional(clip.firstFrameWallMicroseconds.map { .string(ClipTags.timeText($0)) })),
            ("failure", .optional(clip.failure.map { .string($0) })),
        ])
    }

    static func error(for failure: RecordFailure, settings: RecordSettings) -> HFRError {
        let source = settings.capture.source.name
        switch failure {
        case .capture(let error):
            return .capture(error, of: RecordCommand.self)
        case .audioDevice(let name, let f):
            let cause: String
            switch f.errno {
            case ENOENT?, ENODEV?, EIO?: cause = "no such audio device (\(f.message))"
            case EBUSY?: cause = "busy (another program is using it)"
            case EACCES?, EPERM?: cause = "permission denied (are you in the 'audio' group?)"
            default: cause = f.description
            }
            return HFRError("\(name): \(cause)", exitCode: .unavailable)
        case .encoder(let failure):
            // Its kind, decided where it failed: settings OpenH264 refuses (64), a library that
            // does not load (69), an encoder failing on frames (1).
            return HFRError(
                "\(settings.output): encoder failed: \(failure)", exitCode: HFRError.exitCode(for: failure.kind))
        case .write(let f, let report):
            let cause = f.errno == ENOSPC ? "disk full" : f.description
            if let report {
                return .io(
                    settings.output,
                    "\(cause); kept the \(report.framesEncoded) frames captured as a fragmented MP4")
            }
            return .io(settings.output, cause)
        case .sourceLost(let f, let report):
            let cause: String
            switch f {
            case let v as V4L2Failure: cause = v.explanation
            case let a as AVFailure: cause = a.message
            default: cause = "\(f)"
            }
            return HFRError(
                "\(source): lost after \(report.framesEncoded) frames (\(cause)); they are in \(settings.output)",
                exitCode: .unavailable)
        case .nothingRecorded(let reason, let cause):
            return nothingRecorded(reason, cause: cause, source: source, output: settings.output)
        }
    }

    /// A recording that ended before its first frame: what ended it; no file is left.
    static func nothingRecorded(_ reason: StopReason, cause: (any Error)?, source: String, output: String) -> HFRError {
        let text: String
        switch cause {
        case let v as V4L2Failure: text = v.explanation
        case let a as AVFailure: text = a.message
        case let other?: text = "\(other)"
        case nil where reason == .signal:
            return HFRError("\(output): stopped before the first frame; nothing recorded", exitCode: .interrupted)
        case nil:
            return HFRError("\(source): ended before the first frame; nothing recorded", exitCode: .unavailable)
        }
        return HFRError("\(source): lost before the first frame (\(text)); nothing recorded", exitCode: .unavailable)
    }
}
