import HFRCapture
import HFRMedia
import Synchronization

/// Why a recording stopped.
public enum StopReason: String, Sendable {
    case duration, frames, signal, endOfSource = "end-of-source", sourceError = "source-error"
    case writeError = "write-error"
}

/// The capture thread: reads the source, timestamps frames from the source's clock relative to the
/// first video frame, applies the duration/frame limits, and hands frames to the encoders.
///
/// Audio is forwarded only up to the end of the latest video frame, and cut at the last one, so the
/// file's audio ends exactly where its video does.
final class CaptureStage: @unchecked Sendable {
    let input: CaptureInput
    let settings: RecordSettings
    let stats: RecordStats
    let videoQueue: BoundedQueue<Frame>
    let audioQueue: BoundedQueue<Frame>?
    let shouldStop: @Sendable () -> Bool

    private(set) var reason: StopReason = .endOfSource
    private(set) var failure: AVFailure?
    /// End of the last frame kept, in seconds from the first.
    private(set) var videoEnd = Rational(0)

    private var firstVideoPts: Int64?
    private var lastVideoTime: Rational?
    private var pendingAudio: [Frame] = []
    private var audioForwardedEnd = Rational(0)

    init(
        input: CaptureInput, settings: RecordSettings, stats: RecordStats, videoQueue: BoundedQueue<Frame>,
        audioQueue: BoundedQueue<Frame>?, shouldStop: @escaping @Sendable () -> Bool
    ) {
        self.input = input
        self.settings = settings
        self.stats = stats
        self.videoQueue = videoQueue
        self.audioQueue = audioQueue
        self.shouldStop = shouldStop
    }

    func run() {
        defer {
            forwardAudio(upTo: videoEnd, isFinal: true)
            videoQueue.finish()
            audioQueue?.finish()
        }
        let frameDuration = settings.capture.frameRate.reciprocal
        let policy: BoundedQueue<Frame>.FullPolicy = settings.lateFrames == .drop ? .dropIfFull : .block
        do {
            let packet = try Packet()
            while true {
                if shouldStop() {
                    reason = .signal
                    return
                }
                guard let item = try input.next(packet: packet) else {
                    reason = .endOfSource
                    return
                }
                switch item {
                case .audio(let frame):
                    pendingAudio.append(frame)
                case .video(let frame):
                    guard let pts = frame.pts else { continue }
                    let first = firstVideoPts ?? pts
                    firstVideoPts = first
                    let time = Rational.seconds(pts - first, in: input.video.timeBase)
                    if let limit = settings.duration, time >= limit {
                        reason = .duration
                        return
                    }
                    if let limit = settings.frameLimit, stats.captured.load(ordering: .relaxed) >= limit {
                        reason = .frames
                        return
                    }
                    frame.pts = pts - first
                    stats.captured.add(1, ordering: .relaxed)
                    if let last = lastVideoTime {
                        // Frames the source never delivered show as gaps in its timestamps.
                        let missing = ((time - last) / frameDuration).rounded() - 1
                        if missing > 0 { stats.missingFromSource.add(Int(missing), ordering: .relaxed) }
                    }
                    lastVideoTime = time
                    switch videoQueue.push(frame, policy: policy) {
                    case .pushed: break
                    case .dropped: stats.droppedLate.add(1, ordering: .relaxed)
                    case .cancelled: return
                    }
                    stats.noteQueueDepth(videoQueue.depth)
                    videoEnd = time + frameDuration
                    forwardAudio(upTo: videoEnd, isFinal: false)
                }
            }
        } catch {
            failure = error
            reason = .sourceError
        }
    }

    /// Sends held audio frames that end by `end` (seconds from the first video frame); at the end,
    /// cuts the frame that straddles it and drops the rest.
    private func forwardAudio(upTo end: Rational, isFinal: Bool) {
        guard let audioQueue, let audio = input.audio, let first = firstVideoPts else {
            if isFinal { pendingAudio.removeAll() }
            return
        }
        let origin = Rational.seconds(first, in: input.video.timeBase)
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
                frame.pointer.pointee.nb_samples = Int32(((end - start) * rate).rounded())
            }
            frame.pts = (start * rate).rounded()
            if audioQueue.push(frame) == .cancelled { return }
            audioForwardedEnd = start + length
        }
        if isFinal { pendingAudio.removeAll() }
    }
}
