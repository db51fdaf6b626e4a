import Foundation
import HFRCapture
import HFRMedia
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// capture → encode (video, audio) → mux, each on its own thread, joined by bounded queues; then the
/// crash-safe recording is finalized into the output.
public final class RecordPipeline: Sendable {
    let settings: RecordSettings
    /// The capture, opened (a camera's mode set and controls applied); started by `run`.
    let session: CaptureSession
    public let stats = RecordStats()
    /// A live preview's mailbox (`hfr record --preview`), if there is one.
    let preview: PreviewTap?
    private let stopRequested = Atomic<Bool>(false)

    /// A triggered recording's triggers (`--pre-trigger`, `--trigger`): clips instead of one file.
    let triggers: TriggerBoard?
    /// `--force`: a clip may replace a file of its name.
    let force: Bool
    /// Where a warning goes while recording (a source slower than asked), as one line.
    let warn: @Sendable (String) -> Void

    public init(
        settings: RecordSettings, session: CaptureSession, preview: PreviewTap? = nil, triggers: TriggerBoard? = nil,
        force: Bool = false, warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.settings = settings
        self.session = session
        self.preview = preview
        self.triggers = triggers
        self.force = force
        self.warn = warn
    }

    /// Asks the pipeline to stop cleanly (as Ctrl-C does).
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    /// Records until a limit, a signal, or the end of the source; returns what was done.
    public func run(status: ((RecordStats, Int) -> Void)? = nil) throws(RecordFailure) -> RecordReport {
        let started = Date()
        let (input, audioDevice) = try openSources()
        let audioStream = audioDevice?.stream ?? input.audio
        let video: VideoEncodeStage
        let audio: AudioEncodeStage?
        do throws(EncoderFailure) {
            video = try VideoEncodeStage(
                settings: settings, inputTimeBase: input.videoTimeBase, stats: stats,
                isFullRange: session.isJPEG)
            audio = try audioStream.map { a throws(EncoderFailure) in
                try AudioEncodeStage(sampleRate: a.sampleRate, channels: max(1, min(a.channels, 2)), stats: stats)
            }
        } catch {
            throw .encoder(error)
        }
        if let triggers {
            return try runTriggered(
                triggers, input: input, audioDevice: audioDevice, video: video, audio: audio, started: started,
                status: status)
        }
        let formats: (video: [UInt8], audio: (parameters: CodecParameters, timeBase: Rational)?)
        do throws(EncoderFailure) {
            formats = (try video.parameterSets(), try audio.map { a throws(EncoderFailure) in try a.format() })
        } catch {
            throw .encoder(error)
        }
        let writer = try openWriter(parameterSets: formats.video, timeBase: video.outputTimeBase, audio: formats.audio)
        // What the report and the finalizer need from the audio stage, read before it is handed over.
        let audioFormat = audio.map { (sampleRate: $0.sampleRate, priming: Int64($0.encoder.initialPadding)) }
        let outcome = runStages(input: input, audioDevice: audioDevice, video: video, audio: audio) { mux, level in
            if let failure = muxStage(mux, into: writer, status: status, level: level) { return failure }
            do throws(AVFailure) {
                try writer.finish()
            } catch {
                return error
            }
            return nil
        }
        return try settle(outcome, writer: writer, started: started, audioFormat: audioFormat)
    }

    /// The recording once its stages have ended: the fragmented file made the output (or removed,
    /// or kept when no second copy fits) and the report, or what failed.
    private func settle(
        _ outcome: StagesOutcome, writer: FragmentWriter, started: Date, audioFormat: (sampleRate: Int, priming: Int64)?
    ) throws(RecordFailure) -> RecordReport {
        let partial = settings.partialPath
        let isEmpty = stats.encoded.load(ordering: .relaxed) == 0
        if let failure = outcome.encoderFailure {
            if isEmpty { FileSystem.unlink(partial) }
            throw .encoder(failure)
        }
        if isEmpty {
            // Ended before the first frame (unplugged, stopped at once): a file with no video is no
            // recording, so neither it nor the fragmented one is left.
            if let writeFailure = outcome.writeFailure {
                writer.abandon(path: partial)
                FileSystem.unlink(partial)
                throw .write(writeFailure, report: nil)
            }
            FileSystem.unlink(partial)
            throw .nothingRecorded(outcome.capture.reason, cause: outcome.capture.failure)
        }
        if let writeFailure = outcome.writeFailure {
            // No room for a second copy: keep the fragmented file, cut after its last whole fragment.
            writer.abandon(path: partial)
            let kept = FileSystem.rename(partial, settings.output) == 0
            var report = makeReport(
                outcome.capture, started: started, keptFragmented: kept, audioSampleRate: audioFormat?.sampleRate)
            complete(&report, outcome, audioSampleRate: audioFormat?.sampleRate)
            throw .write(writeFailure, report: kept ? report : nil)
        }
        do throws(AVFailure) {
            try RecordingFinalizer.finalize(
                partial: partial, output: settings.output, captureRate: settings.capture.frameRate,
                audio: audioFormat.map {
                    .init(
                        priming: $0.priming,
                        samples: min(
                            Int64(stats.audioSamples.load(ordering: .relaxed)),
                            (outcome.capture.videoEnd * Rational(Int64($0.sampleRate))).rounded()))
                })
        } catch {
            throw .write(error, report: nil)
        }
        var report = makeReport(
            outcome.capture, started: started, keptFragmented: false, audioSampleRate: audioFormat?.sampleRate)
        complete(&report, outcome, audioSampleRate: audioFormat?.sampleRate)
        if let lost = outcome.capture.failure { throw .sourceLost(lost, report: report) }
        return report
    }

    /// What the stages' outcome adds to a report: the RAM buffer's use, the audio that stopped
    /// early and the silence written, a source slower than asked.
    func complete(_ report: inout RecordReport, _ outcome: StagesOutcome, audioSampleRate: Int?) {
        report.ramBuffer = ramBufferUse(peak: outcome.bufferPeak, wallSeconds: report.wallSeconds)
        if let audio = outcome.audio, let rate = audioSampleRate {
            report.audioShortfall = AudioShortfall.from(
                audio, sampleRate: rate, sourceFailure: outcome.capture.audioFailure ?? outcome.audioDeviceFailure)
            report.audioSilence = Rational(audio.silence, Int64(rate))
        }
        if let noticed = outcome.pace.noticedAfter {
            report.slowSource = SlowSource(
                deliveredFPS: outcome.pace.deliveredFPS, noticedAfter: noticed,
                warning: outcome.slowSourceWarning ?? "")
        }
    }

    /// Opens the audio device (if any) and then starts the capture session.
    private func openSources() throws(RecordFailure) -> (any FrameSource, AudioCaptureInput?) {
        // The audio device first: the video source's clock starts when it opens, and frames held
        // back while something else opened would then arrive in one burst.
        let audioDevice: AudioCaptureInput?
        do {
            audioDevice = try settings.audioDevice.map { d throws(AVFailure) in
                try AudioCaptureInput(d, sampleRate: settings.audioRate)
            }
        } catch {
            throw .audioDevice(settings.audioDevice!.description, error)
        }
        do {
            try session.start()
        } catch {
            throw .capture(error)
        }
        return (session, audioDevice)
    }

    /// The crash-safe fragmented file the mux stage writes while recording; a failure to make it is
    /// the output's (exit 74), not an encoder's.
    private func openWriter(
        parameterSets: [UInt8], timeBase: Rational, audio: (parameters: CodecParameters, timeBase: Rational)?
    ) throws(RecordFailure) -> FragmentWriter {
        do {
            return try FragmentWriter(
                path: settings.partialPath, width: settings.capture.width, height: settings.capture.height,
                parameterSets: parameterSets, videoTimeBase: timeBase, audio: audio,
                captureRate: settings.capture.frameRate, rotation: settings.rotation)
        } catch {
            throw .write(error, report: nil)
        }
    }

    /// What the stages reported once they were all joined.
    struct StagesOutcome {
        var capture: CaptureStage.Outcome
        var encoderFailure: EncoderFailure?
        var writeFailure: AVFailure?
        /// The most frames, and bytes of frames, that waited for the video encoder at once.
        var bufferPeak: (count: Int, bytes: Int)
        /// What the audio thread did, when there is audio.
        var audio: AudioEncodeStage.Outcome?
        /// Why reading the audio device failed, if it did.
        var audioDeviceFailure: String?
        /// Whether the source kept up with the rate asked, and the warning said when it did not.
        var pace: SourcePace
        var slowSourceWarning: String?
    }

    /// capture → encode (video, audio) → mux: each stage on its own thread, the mux stage on this
    /// one, joined by bounded queues; returns once every stage has ended and the file is closed.
    /// `sink` takes the encoded packets until the encoders end (given the frames waiting for an
    /// encoder and the bytes they hold, for the status); the write that failed, if one did.
    func runStages(
        input: any FrameSource, audioDevice: AudioCaptureInput?, video: sending VideoEncodeStage,
        audio: sending AudioEncodeStage?, rawRing: sending RawTriggerRing? = nil,
        sink: (BoundedQueue<MuxItem>, () -> (frames: Int, bytes: Int)) -> AVFailure?
    ) -> StagesOutcome {
        // An MJPEG camera's pictures are decoded by their own stage, off the capture thread.
        let decode =
            session.isJPEG
            ? JPEGDecodeStage(
                width: settings.capture.width, height: settings.capture.height, stats: stats, preview: preview,
                timeBase: input.videoTimeBase)
            : nil
        session.deliversJPEG = decode != nil
        let jpegs = decode.map { _ in BoundedQueue<JPEGPicture>(capacity: settings.queueCapacity) }
        let hasRing = rawRing != nil
        let (frames, encoderInput) = videoQueues(producers: decode?.threads ?? 1, hasRing: hasRing)
        let samples = audio.map { _ in BoundedQueue<CapturedAudio>(capacity: 64) }
        let mux = BoundedQueue<MuxItem>(capacity: 64, producers: audio == nil ? 1 : 2)
        let deviceQueue = audioDevice.map { _ in BoundedQueue<Frame>(capacity: 256) }
        let deviceThread = audioDevice.map { StageThread(name: "audio-capture", Self.deviceReader($0, deviceQueue!)) }
        let pace = SourcePace(rate: settings.capture.frameRate)
        let capture = CaptureStage(
            input: input, settings: settings, stats: stats, videoQueue: frames, audioQueue: samples,
            deviceAudio: audioDevice.map { (deviceQueue!, $0.stream) }, pace: pace,
            shouldStop: { [self] in Signals.isStopRequested || stopRequested.load(ordering: .relaxed) })
        (capture.preview, capture.triggers, capture.jpegQueue) = (preview, triggers, jpegs)
        let decodeThreads = decode?.start(from: jpegs!, to: frames) ?? []
        let captureThread = StageThread(name: "capture") { capture.run() }
        var ringThread: StageThread<Void>?
        if let rawRing { ringThread = StageThread(name: "raw-ring") { rawRing.run(from: frames, to: encoderInput) } }
        let encodeThread = StageThread(name: "encode") { video.run(from: encoderInput, to: mux) }
        var audioThread: StageThread<AudioEncodeStage.Outcome>?
        if let audio { audioThread = StageThread(name: "audio") { audio.run(from: samples!, to: mux) } }
        let captureEnded = Locked(false)
        let paceThread = StageThread(name: "pace") { [self] in watch(pace, until: captureEnded) }

        let writeFailure = sink(mux) {
            let waiting = encoderInput.depth + (hasRing ? frames.depth : 0) + (jpegs?.depth ?? 0)
            return (waiting, encoderInput.heldBytes)
        }
        if writeFailure != nil {
            stop()
            mux.cancel()
            jpegs?.cancel()
            frames.cancel()
            encoderInput.cancel()
            samples?.cancel()
        }
        let captured = captureThread.join()
        captureEnded.withLock { $0 = true }
        ringThread?.join()
        let decodeFailure = decodeThreads.compactMap { $0.join() }.first
        // An audio failure ends the audio track only (the report says so), never the recording.
        let encoderFailure = decodeFailure ?? encodeThread.join()
        let audioOutcome = audioThread?.join()
        let deviceFailure = deviceThread?.join()
        return StagesOutcome(
            capture: captured, encoderFailure: encoderFailure, writeFailure: writeFailure,
            bufferPeak: encoderInput.peak, audio: audioOutcome, audioDeviceFailure: deviceFailure ?? nil, pace: pace,
            slowSourceWarning: paceThread.join())
    }

    /// The queue the capture fills and the one the encoder reads, filled by `producers` threads:
    /// in RAM up to the budget with `--buffer ram`; a raw pre-trigger ring stands between them
    /// (else they are one).
    private func videoQueues(
        producers: Int, hasRing: Bool
    ) -> (frames: BoundedQueue<Frame>, encoderInput: BoundedQueue<Frame>) {
        let encoderInput =
            settings.ramBudget.map {
                BoundedQueue<Frame>(byteBudget: $0, producers: hasRing ? 1 : producers) { $0.byteCount }
            } ?? BoundedQueue<Frame>(capacity: settings.queueCapacity, producers: producers)
        let frames =
            hasRing ? BoundedQueue<Frame>(capacity: settings.queueCapacity, producers: producers) : encoderInput
        return (frames, encoderInput)
    }

    /// Looks at the source's pace every tenth of a second until the capture ends; says once, within
    /// a second of the first frame, when it delivers less than asked. Returns what it said.
    private func watch(_ pace: SourcePace, until ended: Locked<Bool>) -> String? {
        var said: String?
        // A tenth of a second between looks, ended at once when the capture ends.
        while !ended.withLock(when: { $0 }, timeout: 0.1, { $0 }) {
            guard pace.check() else { continue }
            let asked = settings.capture.frameRate
            var text =
                "\(settings.capture.source.name) delivers \(DecimalText.fixed(pace.deliveredFPS, digits: 1)) fps, "
                + "not the \(asked.compactDescription) asked"
            if let duration = settings.duration {
                let seconds = DecimalText.fixed(duration, digits: 3)
                text += ": --duration \(seconds) s is kept by the clock, with fewer frames"
            }
            warn(text)
            said = text
        }
        return said
    }

    /// The mux stage: writes packets until every encoder has finished; the write that failed, if one did.
    /// `level`: the frames waiting for an encoder, and the bytes they hold, for the status.
    private func muxStage(
        _ mux: BoundedQueue<MuxItem>, into writer: FragmentWriter, status: ((RecordStats, Int) -> Void)?,
        level: () -> (frames: Int, bytes: Int)
    ) -> AVFailure? {
        var lastStatus = Date.distantPast
        while let item = mux.pop() {
            do {
                try writer.write(item)
            } catch {
                return error
            }
            if let status, Date().timeIntervalSince(lastStatus) >= 0.25 {
                stats.bytes.store(Int(writer.bytesWritten), ordering: .relaxed)
                let level = level()
                stats.heldBytes.store(level.bytes, ordering: .relaxed)
                status(stats, level.frames)
                lastStatus = Date()
            }
        }
        return nil
    }

    /// The audio device's reader: runs until the capture stage cancels the queue (or the device ends).
    /// Returns why reading failed, if it did (the recording goes on; the audio is filled with silence).
    private static func deviceReader(
        _ device: AudioCaptureInput, _ queue: BoundedQueue<Frame>
    ) -> @Sendable () -> String? {
        {
            defer { queue.finish() }
            do {
                let packet = try Packet()
                while let frame = try device.next(packet: packet) {
                    if queue.push(frame) == .cancelled { break }
                }
            } catch {
                return "\(device.device.description): \(error)"
            }
            return nil
        }
    }

    /// What the RAM buffer held (`--buffer ram`), and the recording's `wallSeconds` split at the
    /// capture's end; nil without one.
    func ramBufferUse(peak: (count: Int, bytes: Int), wallSeconds: Double) -> RAMBufferUse? {
        guard let budget = settings.ramBudget else { return nil }
        let ended = stats.captureEndedAt.load(ordering: .relaxed)
        let saving = ended > 0 ? min(wallSeconds, Double(Clock.monotonicMicroseconds - ended) / 1e6) : 0
        return RAMBufferUse(
            budgetBytes: budget, peakBytes: peak.bytes, peakFrames: peak.count, captureSeconds: wallSeconds - saving,
            savingSeconds: saving)
    }

    func makeReport(
        _ capture: CaptureStage.Outcome, started: Date, keptFragmented: Bool, audioSampleRate: Int?
    ) -> RecordReport {
        var info = stat()
        let size = settings.output.withPathBytes({ stat($0, &info) }) == 0 ? Int64(info.st_size) : 0
        let encoded = stats.encoded.load(ordering: .relaxed)
        return RecordReport(
            output: settings.output, stopReason: capture.reason, width: settings.capture.width,
            height: settings.capture.height, frameRate: settings.capture.frameRate,
            temporalLayers: settings.temporalLayers, sourcePixelFormat: capture.sourcePixelFormat,
            framesCaptured: stats.captured.load(ordering: .relaxed),
            framesEncoded: encoded, framesDroppedLate: stats.droppedLate.load(ordering: .relaxed),
            framesMissingFromSource: stats.missingFromSource.load(ordering: .relaxed),
            sourceLosses: capture.sourceLosses.map {
                SourceLosses(
                    dropped: $0.dropped, corrupt: $0.corrupt + stats.corruptPictures.load(ordering: .relaxed),
                    timestampDiscontinuities: $0.timestampDiscontinuities, repeated: $0.repeated)
            },
            framesPerLayer: Array(stats.layerCounts.prefix(settings.temporalLayers)),
            audioSamples: stats.audioSamples.load(ordering: .relaxed), audioSampleRate: audioSampleRate,
            videoDuration: Rational(Int64(encoded)) / settings.capture.frameRate,
            wallSeconds: Date().timeIntervalSince(started), bytes: size,
            maxQueueDepth: stats.maxQueueDepth.load(ordering: .relaxed), queueCapacity: settings.queueCapacity,
            keptFragmented: keptFragmented)
    }
}
