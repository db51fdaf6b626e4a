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
    /// A configured V4L2 camera (mode set, controls applied); nil for libavdevice sources.
    let camera: V4L2Capture?
    public let stats = RecordStats()
    private let stopRequested = Atomic<Bool>(false)

    public init(settings: RecordSettings, camera: V4L2Capture? = nil) {
        self.settings = settings
        self.camera = camera
    }

    /// Asks the pipeline to stop cleanly (as Ctrl-C does).
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    /// Records until a limit, a signal, or the end of the source; returns what was done.
    public func run(status: ((RecordStats, Int) -> Void)? = nil) throws(RecordFailure) -> RecordReport {
        let started = Date()
        // The audio device first: the video source's clock starts when it opens, and frames held
        // back while something else opened would then arrive in one burst.
        let audioDevice: AudioCaptureInput?
        do {
            audioDevice = try settings.audioDevice.map { d throws(AVFailure) in try AudioCaptureInput(d) }
        } catch {
            throw .audioDevice(settings.audioDevice!.description, error)
        }
        let input: any FrameSource
        if let camera {
            do {
                try camera.start()
            } catch {
                throw .device(error)
            }
            input = camera
        } else {
            do {
                input = try CaptureInput(settings.capture)
            } catch {
                throw .source(error)
            }
        }
        let request = settings.capture
        guard input.videoWidth == request.width, input.videoHeight == request.height else {
            throw .mismatch(
                "asked for \(request.width)x\(request.height), the source delivers \(input.videoWidth)x\(input.videoHeight)"
            )
        }
        let audioStream = audioDevice?.stream ?? input.audio
        let video: VideoEncodeStage
        let audio: AudioEncodeStage?
        do {
            video = try VideoEncodeStage(settings: settings, inputTimeBase: input.videoTimeBase, stats: stats)
        } catch {
            throw .encoder("\(error)")
        }
        do {
            audio = try audioStream.map { a throws(AVFailure) in
                try AudioEncodeStage(sampleRate: a.sampleRate, channels: max(1, min(a.channels, 2)), stats: stats)
            }
        } catch {
            throw .encoder("\(error)")
        }
        let parameterSets: [UInt8]
        do {
            parameterSets = try video.encoder.parameterSets()
        } catch {
            throw .encoder("\(error)")
        }
        let writer: FragmentWriter
        do {
            writer = try FragmentWriter(
                path: settings.partialPath, width: request.width, height: request.height,
                parameterSets: parameterSets, videoTimeBase: video.outputTimeBase, audio: audio,
                metadata: RecordingFinalizer.captureRateTags(request.frameRate))
        } catch {
            throw .write(error, report: nil)
        }

        let frames = BoundedQueue<Frame>(capacity: settings.queueCapacity)
        let samples = audio.map { _ in BoundedQueue<Frame>(capacity: 64) }
        let mux = BoundedQueue<MuxItem>(capacity: 64, producers: audio == nil ? 1 : 2)
        let deviceQueue = audioDevice.map { _ in BoundedQueue<Frame>(capacity: 256) }
        let capture = CaptureStage(
            input: input, settings: settings, stats: stats, videoQueue: frames, audioQueue: samples,
            deviceAudio: audioDevice.map { (deviceQueue!, $0.stream) },
            shouldStop: { [self] in StopSignal.isRequested || stopRequested.load(ordering: .relaxed) })
        let deviceThread = audioDevice.map { device in
            StageThread(name: "audio-capture") {
                // Runs until the capture stage cancels the queue (or the device ends).
                do {
                    let packet = try Packet()
                    while let frame = try device.next(packet: packet) {
                        if deviceQueue!.push(frame) == .cancelled { break }
                    }
                } catch {}
                deviceQueue!.finish()
            }
        }
        let threads =
            [
                StageThread(name: "capture") { capture.run() },
                StageThread(name: "encode") { video.run(from: frames, to: mux) },
            ]
            + (audio.map { a in [StageThread(name: "audio") { a.run(from: samples!, to: mux) { capture.videoEnd } }] }
                ?? [])

        // The mux stage runs here, on the calling thread.
        var writeFailure: AVFailure?
        var lastStatus = Date.distantPast
        while let item = mux.pop() {
            do {
                try writer.write(item)
            } catch {
                writeFailure = error
                stop()
                mux.cancel()
                frames.cancel()
                samples?.cancel()
                break
            }
            if let status, Date().timeIntervalSince(lastStatus) >= 0.25 {
                stats.bytes.store(Int(writer.bytesWritten), ordering: .relaxed)
                status(stats, frames.depth)
                lastStatus = Date()
            }
        }
        for thread in threads { thread.join() }
        deviceThread?.join()
        if writeFailure == nil {
            do {
                try writer.finish()
            } catch {
                writeFailure = error
            }
        }
        if let failure = video.failure ?? audio?.failure {
            throw .encoder(failure)
        }

        let partial = settings.partialPath
        var keptFragmented = false
        if let writeFailure {
            // No room for a second copy: keep the fragmented file, cut after its last whole fragment.
            writer.abandon(path: partial)
            keptFragmented = rename(partial, settings.output) == 0
            let report = makeReport(capture: capture, started: started, keptFragmented: keptFragmented, audio: audio)
            throw .write(writeFailure, report: keptFragmented ? report : nil)
        }
        do {
            try RecordingFinalizer.finalize(
                partial: partial, output: settings.output, captureRate: request.frameRate,
                audio: audio.map {
                    .init(
                        priming: Int64($0.encoder.initialPadding),
                        samples: min(
                            Int64(stats.audioSamples.load(ordering: .relaxed)),
                            (capture.videoEnd * Rational(Int64($0.sampleRate))).rounded()))
                })
        } catch {
            throw .write(error, report: nil)
        }
        let report = makeReport(capture: capture, started: started, keptFragmented: false, audio: audio)
        if let lost = capture.failure { throw .sourceLost(lost, report: report) }
        return report
    }

    private func makeReport(
        capture: CaptureStage, started: Date, keptFragmented: Bool, audio: AudioEncodeStage?
    ) -> RecordReport {
        var info = stat()
        let size = stat(settings.output, &info) == 0 ? Int64(info.st_size) : 0
        let encoded = stats.encoded.load(ordering: .relaxed)
        return RecordReport(
            output: settings.output, stopReason: capture.reason, width: settings.capture.width,
            height: settings.capture.height, frameRate: settings.capture.frameRate,
            temporalLayers: settings.temporalLayers, sourcePixelFormat: capture.input.sourcePixelFormat,
            framesCaptured: stats.captured.load(ordering: .relaxed),
            framesEncoded: encoded, framesDroppedLate: stats.droppedLate.load(ordering: .relaxed),
            framesMissingFromSource: stats.missingFromSource.load(ordering: .relaxed),
            sourceLosses: capture.input.losses,
            framesPerLayer: Array(stats.layerCounts.prefix(settings.temporalLayers)),
            audioSamples: stats.audioSamples.load(ordering: .relaxed), audioSampleRate: audio?.sampleRate,
            videoDuration: Rational(Int64(encoded)) / settings.capture.frameRate,
            wallSeconds: Date().timeIntervalSince(started), bytes: size,
            maxQueueDepth: stats.maxQueueDepth.load(ordering: .relaxed), queueCapacity: settings.queueCapacity,
            keptFragmented: keptFragmented)
    }
}
