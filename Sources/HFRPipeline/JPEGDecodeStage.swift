import HFRCapture
import HFRMedia

/// A camera's JPEG picture on its way to the decoders; `order` numbers the pictures the capture
/// stage queued (0, 1, 2 … without gaps), so the decoders can hand them on in that order.
public struct JPEGPicture: Sendable {
    public let packet: Packet
    public let order: Int

    public init(packet: Packet, order: Int) {
        self.packet = packet
        self.order = order
    }
}

/// The MJPEG decode stage: `threads` decoder threads between the capture thread (which only copies
/// the compressed bytes out of the driver's buffer) and the encoder, so decoding and encoding run
/// on different cores. Each thread decodes whichever picture comes next and waits for its turn to
/// pass it on, so frames reach the encoder in capture order. A 4:2:0 JPEG decodes straight into
/// the encoder's layout (yuvj420p is I420 in full range, which the encoder signals) and is handed
/// over as it is; others (4:2:2, most webcams) are converted here, off the encoder's thread. A JPEG that does not decode is counted
/// as corrupt (`RecordStats.corruptPictures`) and leaves its slot empty, as a frame the driver
/// flags with `V4L2_BUF_FLAG_ERROR` does.
public final class JPEGDecodeStage: Sendable {
    let width: Int
    let height: Int
    public let threads: Int
    let stats: RecordStats
    let preview: PreviewTap?
    /// The time base of the pictures' pts (their capture times, for the preview).
    let timeBase: Rational?
    private let gate = TurnGate()

    /// Two threads: at 720p120 4:2:2 one decoder thread let 24 of 600 pictures drop late on a loaded
    /// 2-core host, two none, for ~1 ms more CPU per frame (scripts/bench record, MJPEG rows).
    public static let defaultThreads = 2

    public init(
        width: Int, height: Int, threads: Int = defaultThreads, stats: RecordStats, preview: PreviewTap? = nil,
        timeBase: Rational? = nil
    ) {
        self.width = width
        self.height = height
        self.threads = max(1, threads)
        self.stats = stats
        self.preview = preview
        self.timeBase = timeBase
    }

    /// Starts the decoder threads; `frames` must be made for `threads` producers.
    public func start(from jpegs: BoundedQueue<JPEGPicture>, to frames: BoundedQueue<Frame>) -> [StageThread<
        EncoderFailure?
    >] {
        (0..<threads).map { i in
            StageThread(name: "jpeg-decode-\(i)") { [self] in decode(from: jpegs, to: frames) }
        }
    }

    /// One decoder thread: decodes until the pictures end or something downstream stops.
    func decode(from jpegs: BoundedQueue<JPEGPicture>, to frames: BoundedQueue<Frame>) -> EncoderFailure? {
        defer { frames.finish() }
        do {
            let decoder = try JPEGDecoder(width: width, height: height)
            // JPEG is full range: 4:2:2 pictures become yuvj420p, which the encoder marks as such.
            var converter = try PictureConverter(width: width, height: height, format: .yuvj420p)
            while let picture = jpegs.pop() {
                var frame = try decoder.decode(picture.packet)
                if let decoded = frame { frame = try converter.ownedI420(decoded) }
                guard gate.wait(for: picture.order) else { return nil }
                defer { gate.advance() }
                guard let frame else {
                    noteCorrupt()
                    continue
                }
                let time = timeBase.flatMap { base in picture.packet.pts.map { Rational.seconds($0, in: base) } }
                preview?.offer(frame, at: time?.doubleValue)
                if frames.push(frame) == .cancelled {
                    stop(jpegs)
                    return nil
                }
            }
        } catch {
            stop(jpegs)
            return .libav(error)
        }
        return nil
    }

    /// The picture is lost, as a frame the driver flags: not captured, a gap in the file.
    private func noteCorrupt() {
        stats.corruptPictures.add(1, ordering: .relaxed)
        stats.captured.subtract(1, ordering: .relaxed)
        stats.missingFromSource.add(1, ordering: .relaxed)
    }

    /// Downstream stopped or a decoder failed: the capture stops, the other decoders too.
    private func stop(_ jpegs: BoundedQueue<JPEGPicture>) {
        jpegs.cancel()
        gate.stop()
    }
}
