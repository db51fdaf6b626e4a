import HFRMedia

/// The video thread: converts frames to I420 when the source delivers something else, encodes them
/// with the layered H.264 encoder, and passes the packets to the muxer.
final class VideoEncodeStage {
    var encoder: H264Encoder
    let inputTimeBase: Rational
    let outputTimeBase: Rational
    let frameTicks: Int64
    let stats: RecordStats
    /// Frames arrive in runs with gaps between them (the clips a raw pre-trigger ring lets
    /// through): the first frame after a gap of more than a frame is made a key frame, so each
    /// clip decodes from its own start.
    var keyframeAfterGaps = false
    /// `--trigger motion`: the detector, and where its triggers go.
    var motionDetector: MotionDetector?
    var motionBoard: TriggerBoard?

    /// `isFullRange`: the pictures use the full 0–255 range (JPEG's yuvj420p), so the SPS says so.
    init(
        settings: RecordSettings, inputTimeBase: Rational, stats: RecordStats, isFullRange: Bool = false
    ) throws(EncoderFailure) {
        let request = settings.capture
        var encoding = H264Encoder.Settings(
            width: request.width, height: request.height, frameRate: request.frameRate,
            temporalLayers: settings.temporalLayers, bitrate: settings.bitrate,
            keyframeInterval: settings.keyframeInterval, threads: settings.encoderThreads)
        if isFullRange {
            encoding.videoSignal = StreamPresentation()
            encoding.videoSignal?.colorRange = 2  // AVCOL_RANGE_JPEG
        }
        do {
            encoder = try H264Encoder(encoding)
        } catch {
            throw .h264(error)
        }
        self.inputTimeBase = inputTimeBase
        outputTimeBase = RecordSettings.videoTimeBase(for: request.frameRate)
        frameTicks = (request.frameRate.reciprocal / outputTimeBase).rounded()
        self.stats = stats
    }

    /// SPS/PPS for the file's video track.
    func parameterSets() throws(EncoderFailure) -> [UInt8] {
        do {
            return try encoder.parameterSets()
        } catch {
            throw .h264(error)
        }
    }

    /// Encodes until the frames end; the failure that stopped it early, if one did.
    func run(from frames: BoundedQueue<Frame>, to mux: BoundedQueue<MuxItem>) -> EncoderFailure? {
        defer { mux.finish() }
        do {
            var converter = try PictureConverter(width: encoder.settings.width, height: encoder.settings.height)
            var previousPts: Int64?
            while let frame = frames.pop() {
                if keyframeAfterGaps, let previous = previousPts, let pts = frame.pts,
                    Rational.seconds(pts - previous, in: inputTimeBase) * encoder.settings.frameRate > Rational(3, 2)
                {
                    try encoder.forceKeyframe()
                }
                previousPts = frame.pts
                let picture = try converter.i420(frame)
                if let board = motionBoard, let score = motionDetector?.score(picture) {
                    board.motionScore = score
                    board.detect(
                        .motion, at: Rational.seconds(frame.pts ?? 0, in: inputTimeBase),
                        isAbove: score >= board.settings.motionThreshold)
                }
                let pts = Rational.rescale(frame.pts ?? 0, from: inputTimeBase, to: outputTimeBase)
                let packet = try Packet()
                let encoded = try encoder.encode(picture, pts: pts, timeBase: outputTimeBase, into: packet)
                packet.duration = frameTicks
                stats.encoded.add(1, ordering: .relaxed)
                stats.countLayer(encoded.temporalID)
                if mux.push(.video(packet, timeBase: outputTimeBase)) == .cancelled {
                    frames.cancel()
                    return nil
                }
            }
        } catch let failure as H264Encoder.Failure {
            frames.cancel()
            return .h264(failure)
        } catch let failure as AVFailure {
            frames.cancel()
            return .libav(failure)
        } catch {
            frames.cancel()
            return .libav(AVFailure.invalidData("\(error)"))
        }
        return nil
    }
}
