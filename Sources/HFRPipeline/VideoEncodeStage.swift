import CFFmpeg
import HFRMedia

/// The video thread: converts frames to I420 when the source delivers something else, encodes them
/// with the layered H.264 encoder, and passes the packets to the muxer.
final class VideoEncodeStage: @unchecked Sendable {
    let encoder: H264Encoder
    let inputTimeBase: Rational
    let outputTimeBase: Rational
    let frameTicks: Int64
    let stats: RecordStats
    private var scaler: Scaler?
    private(set) var failure: String?

    init(settings: RecordSettings, inputTimeBase: Rational, stats: RecordStats) throws(H264Encoder.Failure) {
        let request = settings.capture
        encoder = try H264Encoder(
            .init(
                width: request.width, height: request.height, frameRate: request.frameRate,
                temporalLayers: settings.temporalLayers, bitrate: settings.bitrate,
                keyframeInterval: settings.keyframeInterval, threads: settings.encoderThreads))
        self.inputTimeBase = inputTimeBase
        outputTimeBase = RecordSettings.videoTimeBase(for: request.frameRate)
        frameTicks = (request.frameRate.reciprocal / outputTimeBase).rounded()
        self.stats = stats
    }

    func run(from frames: BoundedQueue<Frame>, to mux: BoundedQueue<MuxItem>) {
        defer { mux.finish() }
        let width = encoder.settings.width
        let height = encoder.settings.height
        do {
            let converted = try Frame()
            while let frame = frames.pop() {
                var picture = frame
                let f = frame.pointer.pointee
                let isI420 = f.format == AV_PIX_FMT_YUV420P.rawValue || f.format == AV_PIX_FMT_YUVJ420P.rawValue
                if !isI420 || frame.width != width || frame.height != height {
                    if scaler == nil {
                        scaler = try Scaler(
                            from: (frame.width, frame.height, AVPixelFormat(f.format)),
                            to: (width, height, AV_PIX_FMT_YUV420P))
                    }
                    try scaler!.scale(frame, into: converted)
                    picture = converted
                }
                let pts = Rational.rescale(frame.pts ?? 0, from: inputTimeBase, to: outputTimeBase)
                let packet = try Packet()
                let encoded = try encoder.encode(picture, pts: pts, timeBase: outputTimeBase, into: packet)
                packet.pointer.pointee.duration = frameTicks
                stats.encoded.add(1, ordering: .relaxed)
                stats.countLayer(encoded.temporalID)
                if mux.push(.video(packet, timeBase: outputTimeBase)) == .cancelled {
                    frames.cancel()
                    return
                }
            }
        } catch {
            failure = "\(error)"
            frames.cancel()
        }
    }
}
