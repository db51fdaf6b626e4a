import HFRMedia

/// What lossless copying cannot reach: decodes the source, picks for each output frame slot the
/// source frame nearest to the source time the map sends it to, and encodes with the same layered
/// OpenH264 encoder `hfr record` uses.
final class VideoReencoder {
    let encoder: H264Encoder
    let outputTimeBase: Rational
    private let decoder: Decoder
    private let sourceTimeBase: Rational
    private let origin: Rational
    private let plan: ExportPlan
    private let frameTicks: Int64
    private var converter: PictureConverter
    private let packet: Packet
    /// The last decoded frame and its source time (from the origin).
    private var held: (frame: Frame, time: Rational)?
    private var slot: Int64 = 0
    private(set) var framesIn = 0
    private(set) var framesOut = 0
    /// Output frames per segment of the time map (by the source time of their slot).
    private(set) var slots: FrameTally
    private(set) var layerCounts: [Int: Int] = [:]

    init(
        parameters: CodecParameters, info: StreamInfo, plan: ExportPlan, origin: Rational
    ) throws(ExportFailure) {
        let rate = plan.outputRate
        let layers = rate >= Rational(120) ? 3 : rate >= Rational(60) ? 2 : 1
        let pattern = 1 << (layers - 1)
        let keyint = max(pattern, Int(rate.rounded()) / pattern * pattern)
        let bits = min(max(Double(info.width * info.height) * rate.doubleValue * 0.06, 500_000), 100_000_000)
        do {
            decoder = try Decoder(parameters: parameters, timeBase: info.timeBase, threads: 2)
            var settings = H264Encoder.Settings(
                width: info.width, height: info.height, frameRate: rate, temporalLayers: layers,
                bitrate: Int(bits), keyframeInterval: keyint,
                threads: H264Encoder.Settings.defaultThreads(width: info.width, height: info.height, frameRate: rate))
            settings.videoSignal = info.presentation
            encoder = try H264Encoder(settings)
            converter = try PictureConverter(width: info.width, height: info.height)
            packet = try Packet()
        } catch let failure as AVFailure {
            // Only the decoder throws AVFailure here: it does not open on the input's configuration.
            throw .badInput("video decoder configuration is corrupt (\(failure))")
        } catch {
            throw .processing("video encoder: \(error)")
        }
        (outputTimeBase, frameTicks) = VideoReencoder.timing(rate: rate)
        sourceTimeBase = info.timeBase
        self.origin = origin
        self.plan = plan
        slots = FrameTally(segmentCount: plan.map.segments.count)
    }

    /// The output time base (a multiple of the rate, at least 90 kHz) and the ticks of one frame.
    static func timing(rate: Rational) -> (timeBase: Rational, frameTicks: Int64) {
        let multiple = max(1, (90000 + rate.numerator - 1) / rate.numerator)
        let timeBase = Rational(rate.denominator, rate.numerator * multiple)
        return (timeBase, (rate.reciprocal / timeBase).rounded())
    }

    /// SPS/PPS for the output stream's extradata.
    func parameterSets() throws(ExportFailure) -> [UInt8] {
        do {
            return try encoder.parameterSets()
        } catch {
            throw .processing("video encoder: \(error)")
        }
    }

    /// Decodes `packet` (nil at the end) and encodes every output slot that is now decided.
    func push(_ input: Packet?, write: (Packet) throws(ExportFailure) -> Void) throws(ExportFailure) {
        do {
            _ = try decoder.send(input)
        } catch {
            throw .badInput("corrupt video packet (\(error))")
        }
        while true {
            let frame: Frame
            let state: Drain<Void>
            do {
                frame = try Frame()
                state = try decoder.receive(into: frame)
            } catch {
                throw .badInput("corrupt video (\(error))")
            }
            guard case .value = state else { break }
            if frame.isCorrupt { throw .badInput("corrupt video: frame \(framesIn) decodes with errors") }
            framesIn += 1
            let pts = frame.bestEffortTimestamp ?? 0
            let time = Rational.seconds(pts, in: sourceTimeBase) - origin
            if let held {
                // Slots nearer to the held frame than to this one are decided now.
                let midpoint = (held.time + time) / Rational(2)
                while let s = slotTime(), s < midpoint { try encode(held.frame, write) }
            }
            held = (frame, time)
        }
        if input == nil, let held {
            while slotTime() != nil { try encode(held.frame, write) }
        }
    }

    /// Source time of the next output slot; nil past the end.
    private func slotTime() -> Rational? { plan.reencodedSlotTime(slot) }

    private func encode(_ frame: Frame, _ write: (Packet) throws(ExportFailure) -> Void) throws(ExportFailure) {
        let picture: Frame
        do {
            picture = try converter.i420(frame)
        } catch {
            throw .processing("video conversion: \(error)")
        }
        let pts = slot * frameTicks
        do {
            let encoded = try encoder.encode(picture, pts: pts, timeBase: outputTimeBase, into: packet)
            layerCounts[encoded.temporalID, default: 0] += 1
        } catch {
            throw .processing("video encoder: \(error)")
        }
        packet.duration = frameTicks
        if let t = slotTime() {
            let span = (Rational(pts) * outputTimeBase, Rational(pts + frameTicks) * outputTimeBase)
            slots.countSlot(at: t, span: span, plan: plan)
        }
        slot += 1
        framesOut += 1
        try write(packet)
    }
}
