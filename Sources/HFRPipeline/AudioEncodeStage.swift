import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// The audio thread: converts samples to the encoder's format, re-chunks them to its frame size,
/// and encodes them with timestamps counted in samples (so audio length is exact). AAC up to 48 kHz;
/// above, ALAC: FFmpeg's AAC encoder low-passes below 20 kHz, and what lies above is why a device is
/// recorded at 96 or 192 kHz (bat calls, machinery), so it is kept losslessly.
final class AudioEncodeStage {
    let encoder: Encoder
    let fifo: AudioFIFO
    let sampleRate: Int
    let stats: RecordStats
    private var converter: AudioConverter
    /// Planar float to the encoder's sample format (ALAC's integers), made on first use.
    private var encoderFormat: Resampler?
    private var samplesSent: Int64 = 0
    /// `--trigger audio`: where its triggers go.
    var levelTrigger: TriggerBoard?
    /// Samples placed on the timeline so far (what the next frame's pts should be).
    private var placed: Int64 = 0

    init(sampleRate: Int, channels: Int, stats: RecordStats) throws(EncoderFailure) {
        do {
            encoder =
                sampleRate > 48000
                ? try Encoder.retimedAudio(codec: "alac", sampleRate: sampleRate, channels: channels)
                : try Encoder.aac(sampleRate: sampleRate, channels: channels)
            fifo = try AudioFIFO(channels: channels)
        } catch {
            throw .libav(error)
        }
        self.sampleRate = sampleRate
        converter = AudioConverter(channels: channels, sampleRate: sampleRate)
        self.stats = stats
    }

    var timeBase: Rational { Rational(1, Int64(sampleRate)) }

    /// The encoder's stream parameters and time base, for the file's audio track.
    func format() throws(EncoderFailure) -> (parameters: CodecParameters, timeBase: Rational) {
        do {
            return (try encoder.parameters(), timeBase)
        } catch {
            throw .libav(error)
        }
    }

    /// Encodes until the capture ends; the video's end, sent last, is where the audio must end: a
    /// short tail is padded with silence, a long one cut. Returns the failure that stopped it early.
    func run(from captured: BoundedQueue<CapturedAudio>, to mux: BoundedQueue<MuxItem>) -> EncoderFailure? {
        defer { mux.finish() }
        do throws(AVFailure) {
            var videoEnd: Rational?
            while let item = captured.pop() {
                switch item {
                case .samples(let frame): try place(frame)
                case .videoEnd(let end): videoEnd = end
                }
                while fifo.count >= encoder.frameSize {
                    guard try encode(fifo.read(encoder.frameSize, sampleRate: sampleRate), mux) else {
                        captured.cancel()
                        return nil
                    }
                }
            }
            try finish(at: videoEnd.map { ($0 * Rational(Int64(sampleRate))).rounded() } ?? placed, mux)
            return nil
        } catch {
            captured.cancel()
            return .libav(error)
        }
    }

    /// Pads or cuts what is left to end at sample `target`, encodes it and drains the encoder.
    private func finish(at target: Int64, _ mux: BoundedQueue<MuxItem>) throws(AVFailure) {
        if placed < target {
            try fifo.writeSilence(Int(target - placed))
            placed = target
        }
        if fifo.count > 0 {
            let last = try fifo.read(fifo.count, sampleRate: sampleRate)
            last.truncateSamples(to: last.sampleCount - Int(max(0, placed - target)))
            if last.sampleCount > 0 { _ = try encode(last, mux) }
        }
        _ = try encode(nil, mux)
    }

    /// Puts `frame` where its pts says (samples from the first video frame): a gap before it becomes
    /// silence and an overlap is cut, so audio stays in sync however the device delivered it.
    private func place(_ frame: Frame) throws(AVFailure) {
        let converted = try converter.convert(frame)
        var position = frame.pts ?? placed
        // A device's timestamps jitter by a few milliseconds; within 20 ms the samples are taken as
        // contiguous (cutting or padding for jitter would click). The first frame is always placed.
        if placed > 0, abs(position - placed) < Int64(sampleRate / 50) { position = placed }
        var skip = 0
        if position > placed {
            let gap = min(position - placed, Int64(sampleRate) * 10)
            try fifo.writeSilence(Int(gap))
            placed += gap
        } else if position < placed {
            skip = Int(placed - position)
        }
        try fifo.write(converted, skipping: skip)
        placed += Int64(max(0, converted.sampleCount - skip))
    }

    /// `--trigger audio`: the first sample at or above the threshold fires it at that sample's time
    /// (samples count from the first video frame); a frame wholly below re-arms it.
    private func detectLevel(_ frame: Frame, _ board: TriggerBoard) {
        let threshold = Float(pow(10, board.settings.audioThreshold / 20))
        var first: Int?
        if frame.isPlanarFloat(channels: frame.channelCount) {
            for channel in 0..<frame.channelCount {
                let samples = frame.floatPlane(channel)
                if let i = samples.firstIndex(where: { abs($0) >= threshold }) { first = min(first ?? i, i) }
            }
        }
        let at = samplesSent + Int64(first ?? 0)
        board.detect(.audio, at: Rational(at, Int64(sampleRate)), isAbove: first != nil)
    }

    /// Encodes `frame` (nil flushes) and forwards the packets; false when the muxer has gone.
    private func encode(_ frame: Frame?, _ mux: BoundedQueue<MuxItem>) throws(AVFailure) -> Bool {
        if let frame {
            if let board = levelTrigger { detectLevel(frame, board) }
            frame.pts = samplesSent
            samplesSent += Int64(frame.sampleCount)
            stats.audioSamples.add(frame.sampleCount, ordering: .relaxed)
        }
        _ = try encoder.send(try frame.map { f throws(AVFailure) in try encoder.adapt(f, with: &encoderFormat) })
        while true {
            let packet = try Packet()
            guard case .value = try encoder.receive(into: packet) else { return true }
            // The encoder starts at −priming; the fragmented file cannot hold negative times, so
            // audio is written from 0 there and shifted back when the file is finalized.
            packet.pts = packet.pts.map { $0 + Int64(encoder.initialPadding) }
            packet.dts = packet.dts.map { $0 + Int64(encoder.initialPadding) }
            if mux.push(.audio(packet, timeBase: timeBase)) == .cancelled { return false }
        }
    }
}
