import HFRCapture
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Why a recording stopped.
public enum StopReason: String, Sendable {
    case duration, frames, signal, endOfSource = "end-of-source", sourceError = "source-error"
    /// A triggered recording wrote its `--clips N`.
    case clips
}

/// The capture thread: reads the source, timestamps frames from the source's clock relative to the
/// first video frame, applies the duration/frame limits, and hands frames to the encoders.
///
/// Audio is forwarded only up to the end of the latest video frame, and cut at the last one, so the
/// file's audio ends exactly where its video does.
final class CaptureStage {
    let input: any FrameSource
    let settings: RecordSettings
    let stats: RecordStats
    let videoQueue: BoundedQueue<Frame>
    let audioQueue: BoundedQueue<CapturedAudio>?
    /// Frames from a separate audio device (its own thread fills this), if there is one.
    let deviceAudio: (queue: BoundedQueue<Frame>, stream: StreamInfo)?
    let shouldStop: @Sendable () -> Bool
    /// Whether the source keeps up with the rate asked (a slow one ends `--duration` by the clock).
    let pace: SourcePace?
    /// A live preview's mailbox, offered pictures without waiting (`PreviewTap`).
    var preview: PreviewTap?
    /// A triggered recording's triggers: the requests (signal, key, button) are stamped with the
    /// time of the frame that arrives after them.
    var triggers: TriggerBoard?
    /// Where a camera's still-compressed JPEG pictures go (the decode stage), when it sends them.
    var jpegQueue: BoundedQueue<JPEGPicture>?
    /// JPEG pictures queued so far (their `order`).
    private var jpegCount = 0

    private let frameDuration: Rational
    private let latePolicy: BoundedQueue<Frame>.FullPolicy
    /// End of the last frame kept, in seconds from the first.
    private var videoEnd = Rational(0)
    /// What the source had lost when the last kept frame arrived: a gap before a frame the limits
    /// then turned away lies outside the recording and is not reported.
    private var lossesAtLastFrame: SourceLosses?

    private var firstVideoPts: Int64?
    private var lastVideoTime: Rational?
    private var pendingAudio: [Frame] = []
    /// The audio clock's reading (seconds) at the first video frame.
    private var audioOrigin: Rational?
    /// The end of the audio forwarded so far (samples or silence), in seconds from the first frame.
    private var audioForwardedEnd = Rational(0)
    /// How far the audio may lag the video before it counts as stalled and the track goes on in
    /// silence: a device's audio arrives with some latency (its last samples are waited for up to
    /// 2 s); the source's own comes with the video.
    private var audioStallAllowance: Rational { deviceAudio == nil ? Rational(1) : Rational(2) }

    /// The audio stream whose frames are forwarded: the source's own, or the audio device's.
    private var audioStream: StreamInfo? { deviceAudio?.stream ?? input.audio }

    init(
        input: any FrameSource, settings: RecordSettings, stats: RecordStats, videoQueue: BoundedQueue<Frame>,
        audioQueue: BoundedQueue<CapturedAudio>?, deviceAudio: (queue: BoundedQueue<Frame>, stream: StreamInfo)? = nil,
        pace: SourcePace? = nil, shouldStop: @escaping @Sendable () -> Bool
    ) {
        self.input = input
        self.settings = settings
        self.stats = stats
        self.videoQueue = videoQueue
        self.audioQueue = audioQueue
        self.deviceAudio = deviceAudio
        self.shouldStop = shouldStop
        self.pace = pace
        frameDuration = settings.capture.frameRate.reciprocal
        latePolicy = settings.lateFrames == .drop ? .dropIfFull : .block
    }

    /// How the capture ended: why, what failed, where the video ends, what the source lost.
    struct Outcome: Sendable {
        var reason: StopReason
        var failure: (any Error)?
        /// End of the last frame kept, in seconds from the first.
        var videoEnd: Rational
        var sourcePixelFormat: String?
        var sourceLosses: SourceLosses?
        /// Why the source's own audio failed, if it did.
        var audioFailure: String?
    }

    /// Captures until a limit, a stop, the end of the source or a failure.
    func run() -> Outcome {
        var outcome = Outcome(reason: .endOfSource, videoEnd: Rational(0))
        do {
            outcome.reason = try captureFrames()
        } catch {
            outcome.failure = error
            outcome.reason = .sourceError
        }
        stats.captureEndedAt.store(Clock.monotonicMicroseconds, ordering: .relaxed)
        collectDeviceAudio(until: videoEnd)
        forwardAudio(upTo: videoEnd, isFinal: true)
        _ = audioQueue?.push(.videoEnd(videoEnd))
        deviceAudio?.queue.cancel()
        // The decode stage's threads are the producers of `videoQueue` when there is one.
        if let jpegQueue { jpegQueue.finish() } else { videoQueue.finish() }
        audioQueue?.finish()
        outcome.videoEnd = videoEnd
        outcome.sourcePixelFormat = input.sourcePixelFormat
        outcome.sourceLosses = lossesAtLastFrame
        outcome.audioFailure = input.audioFailure?.description
        return outcome
    }

    /// Reads the source until something stops the capture; returns why.
    private func captureFrames() throws -> StopReason {
        while true {
            if shouldStop() { return .signal }
            if isPastWallClockDuration { return .duration }
            pace?.enterSource()
            let next = try input.next()
            pace?.leaveSource()
            // A frame that a slow source delivers after the wall-clock end is not taken.
            if isPastWallClockDuration { return .duration }
            guard let item = next else { return .endOfSource }
            switch item {
            case .idle:
                continue
            case .audio(let frame):
                pendingAudio.append(frame)
            case .video(let frame, let wallClock):
                guard let pts = frame.pts else { continue }
                if let stop = accept(pts: pts, wallClock: wallClock, queue: { queue(frame, pts: $0) }) { return stop }
            case .jpeg(let packet, let wallClock):
                guard let pts = packet.pts else { continue }
                if let stop = accept(pts: pts, wallClock: wallClock, queue: { queue(packet, pts: $0) }) { return stop }
            }
        }
    }

    /// `--duration` is a promise in wall-clock time: a source found slower than asked (`SourcePace`)
    /// ends when that much time has passed since its first frame, whatever media time it reached.
    private var isPastWallClockDuration: Bool {
        guard let limit = settings.duration, let pace, pace.isSlow else { return false }
        return Rational(pace.wallSinceFirstFrame, 1_000_000) >= limit
    }

    /// Queues a picture for the encoder, with its pts from the first frame.
    private func queue(_ frame: Frame, pts: Int64) -> BoundedQueue<Frame>.PushResult {
        frame.pts = pts
        preview?.offer(frame, at: Rational.seconds(pts, in: input.videoTimeBase).doubleValue)
        defer { stats.noteQueueDepth(videoQueue.depth) }
        return videoQueue.push(frame, policy: latePolicy)
    }

    /// Queues a JPEG picture for the decode stage (which offers the preview its pictures).
    private func queue(_ packet: Packet, pts: Int64) -> BoundedQueue<Frame>.PushResult {
        guard let jpegQueue else { return .cancelled }
        packet.pts = pts
        let pushed = jpegQueue.push(
            JPEGPicture(packet: packet, order: jpegCount), policy: latePolicy == .block ? .block : .dropIfFull)
        stats.noteQueueDepth(jpegQueue.depth)
        switch pushed {
        case .pushed:
            jpegCount += 1
            return .pushed
        case .dropped: return .dropped
        case .cancelled: return .cancelled
        }
    }

    /// Times a video picture from the first one, applies the limits and queues it for the encoder
    /// (`queue`, given the pts from the first frame); a reason when the capture should stop instead.
    private func accept(
        pts: Int64, wallClock: Int64?, queue: (Int64) -> BoundedQueue<Frame>.PushResult
    ) -> StopReason? {
        if firstVideoPts == nil {
            firstVideoPts = pts
            stats.firstFrameWall.store(wallClock ?? Clock.wallMicroseconds, ordering: .relaxed)
            // A device's audio is stamped with the wall clock (so is a camera frame's capture, when
            // the source knows it); the source's own audio shares the video's clock.
            audioOrigin =
                deviceAudio != nil
                ? Rational(wallClock ?? Clock.wallMicroseconds, 1_000_000)
                : Rational.seconds(pts, in: input.videoTimeBase)
        }
        let first = firstVideoPts!
        let time = Rational.seconds(pts - first, in: input.videoTimeBase)
        if let limit = settings.duration, time >= limit {
            countSkipped(before: limit, stoppedAt: time)
            return .duration
        }
        if let limit = settings.frameLimit, stats.captured.load(ordering: .relaxed) >= limit { return .frames }
        stats.captured.add(1, ordering: .relaxed)
        triggers?.stamp(at: time)
        if let last = lastVideoTime {
            // Frames the source never delivered show as gaps in its timestamps.
            let missing = ((time - last) / frameDuration).rounded() - 1
            if missing > 0 { stats.missingFromSource.add(Int(missing), ordering: .relaxed) }
        }
        lastVideoTime = time
        switch queue(pts - first) {
        case .pushed: break
        case .dropped: stats.droppedLate.add(1, ordering: .relaxed)
        case .cancelled: return .endOfSource
        }
        videoEnd = time + frameDuration
        pace?.noteFrame(end: videoEnd)
        lossesAtLastFrame = input.losses
        if let dropped = lossesAtLastFrame?.dropped { stats.droppedBySource.store(dropped, ordering: .relaxed) }
        while let frame = deviceAudio?.queue.tryPop() { pendingAudio.append(frame) }
        forwardAudio(upTo: videoEnd, isFinal: false)
        fillStalledAudio()
        return nil
    }

    /// The frame past `--duration` ends the capture, but the slots the source skipped between the
    /// last frame taken and the limit were inside the duration: they are counted like any other gap
    /// (missing from the source, and dropped by the device when it says so).
    private func countSkipped(before limit: Rational, stoppedAt time: Rational) {
        guard let last = lastVideoTime else { return }
        let skipped = Int(((time - last) / frameDuration).rounded()) - 1
        var within = 0
        while within < skipped, last + frameDuration * Rational(Int64(within + 1)) < limit { within += 1 }
        guard within > 0 else { return }
        stats.missingFromSource.add(within, ordering: .relaxed)
        guard var losses = lossesAtLastFrame, let now = input.losses, now.dropped > losses.dropped else { return }
        losses.dropped += min(within, now.dropped - losses.dropped)
        lossesAtLastFrame = losses
        stats.droppedBySource.store(losses.dropped, ordering: .relaxed)
    }

    /// Audio lagging the video by more than `audioStallAllowance`, with none waiting, has stalled
    /// or ended: the track goes on in silence to that distance behind the video, so the muxer's
    /// interleaving (which waits for every track) and a clip (which closes once its audio has
    /// reached its end) go on with the video.
    private func fillStalledAudio() {
        guard let audioQueue, audioOrigin != nil, pendingAudio.isEmpty else { return }
        let until = videoEnd - audioStallAllowance
        guard until > audioForwardedEnd, audioQueue.push(.silence(until: until)) == .pushed else { return }
        audioForwardedEnd = until
    }

    /// Waits (up to two seconds) for a device's audio to reach `end`: it arrives with some latency.
    private func collectDeviceAudio(until end: Rational) {
        guard let device = deviceAudio, let origin = audioOrigin else { return }
        let rate = Rational(Int64(device.stream.sampleRate))
        let deadline = Clock.monotonicMicroseconds + 2_000_000
        while Clock.monotonicMicroseconds < deadline {
            while let frame = device.queue.tryPop() { pendingAudio.append(frame) }
            if let last = pendingAudio.last, let pts = last.pts,
                Rational.seconds(pts, in: device.stream.timeBase) - origin + Rational(Int64(last.sampleCount)) / rate
                    >= end
            {
                return
            }
            usleep(5000)
        }
    }

    /// Sends held audio frames that end by `end` (seconds from the first video frame); at the end,
    /// cuts the frame that straddles it and drops the rest.
    private func forwardAudio(upTo end: Rational, isFinal: Bool) {
        guard let audioQueue, let audio = audioStream, let origin = audioOrigin else {
            if isFinal { pendingAudio.removeAll() }
            return
        }
        let rate = Rational(Int64(audio.sampleRate))
        while let frame = pendingAudio.first {
            guard let pts = frame.pts else {
                pendingAudio.removeFirst()
                continue
            }
            let start = Rational.seconds(pts, in: audio.timeBase) - origin
            let length = Rational(Int64(frame.sampleCount)) / rate
            if start + length <= Rational(0) {
                pendingAudio.removeFirst()  // before the first video frame
                continue
            }
            if start >= end || (!isFinal && start + length > end) { break }
            pendingAudio.removeFirst()
            if start + length > end {
                // Keep only the samples before the end; the data pointers stay valid for fewer samples.
                frame.truncateSamples(to: Int(((end - start) * rate).rounded()))
            }
            // A frame that began before the first video frame keeps a negative pts: the encoder
            // stage drops those leading samples.
            frame.pts = (start * rate).rounded()
            if audioQueue.push(.samples(frame)) == .cancelled { return }
            audioForwardedEnd = max(audioForwardedEnd, start + Rational(Int64(frame.sampleCount)) / rate)
        }
        if isFinal { pendingAudio.removeAll() }
    }
}
