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
    private var outcome = Outcome()

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

    /// What the audio thread did: where the source's samples ended, the silence written where it
    /// had none, and the encoder's failure if one ended the audio track early.
    struct Outcome: Sendable {
        /// The end of the last samples the source gave, in samples from the first video frame.
        var sourceEnd: Int64 = 0
        /// Samples of silence written where the source gave none (gaps, a stall, after its end).
        var silence: Int64 = 0
        /// Where the track had to end (the video's end), in samples; nil when the capture never said.
        var target: Int64?
        /// Set when encoding failed: the audio track ends there, the recording goes on without it.
        var failure: EncoderFailure?
        /// Samples encoded (the track's length) when it failed.
        var encoded: Int64 = 0
    }

    /// Encodes until the capture ends; the video's end, sent last, is where the audio must end: a
    /// short tail is padded with silence, a long one cut. A failure ends only the audio track: the
    /// capture goes on (its samples are dropped from then on) and the video with it.
    func run(from captured: BoundedQueue<CapturedAudio>, to mux: BoundedQueue<MuxItem>) -> Outcome {
        defer { mux.finish() }
        do throws(AVFailure) {
            while let item = captured.pop() {
                switch item {
                case .samples(let frame):
                    if try place(frame) { outcome.sourceEnd = placed }
                case .silence(let end): try pad(to: (end * Rational(Int64(sampleRate))).rounded())
                case .videoEnd(let end): outcome.target = (end * Rational(Int64(sampleRate))).rounded()
                }
                guard try drain(mux) else {
                    captured.cancel()
                    return outcome
                }
            }
            try finish(at: outcome.target ?? placed, mux)
        } catch {
            // Nothing more is taken from the capture (its pushes return at once), which goes on.
            captured.cancel()
            outcome.failure = .libav(error)
            outcome.encoded = samplesSent
        }
        return outcome
    }

    /// Encodes every whole encoder frame the FIFO holds; false when the muxer has gone.
    private func drain(_ mux: BoundedQueue<MuxItem>) throws(AVFailure) -> Bool {
        while fifo.count >= encoder.frameSize {
            guard try encode(fifo.read(encoder.frameSize, sampleRate: sampleRate), mux) else { return false }
        }
        return true
    }

    /// Fills silence up to sample `target` (the source stalled or ended): a frame at a time, so a
    /// long gap never sits in memory whole. The muxer going away ends it.
    private func pad(to target: Int64, _ mux: BoundedQueue<MuxItem>? = nil) throws(AVFailure) {
        while placed < target {
            let n = min(target - placed, Int64(encoder.frameSize))
            try fifo.writeSilence(Int(n))
            placed += n
            outcome.silence += n
            if let mux, try !drain(mux) { return }
        }
    }

    /// Pads or cuts what is left to end at sample `target`, encodes it and drains the encoder: whole
    /// encoder frames, then at most one shorter last one (a frame longer than the encoder's frame
    /// size is refused with EINVAL).
    private func finish(at target: Int64, _ mux: BoundedQueue<MuxItem>) throws(AVFailure) {
        try pad(to: target, mux)
        let extra = Int(max(0, placed - target))
        guard try drain(mux) else { return }
        if fifo.count > 0 {
            let last = try fifo.read(fifo.count, sampleRate: sampleRate)
            last.truncateSamples(to: last.sampleCount - extra)
            if last.sampleCount > 0 { _ = try encode(last, mux) }
        }
        _ = try encode(nil, mux)
    }

    /// Puts `frame` where its pts says (samples from the first video frame): a gap before it becomes
    /// silence and an overlap is cut, so audio stays in sync however the device delivered it.
    /// (A gap longer than 10 s keeps 10 s: the capture fills a stall as it happens, `.silence`.)
    /// Whether any of its samples were kept.
    private func place(_ frame: Frame) throws(AVFailure) -> Bool {
        let converted = try converter.convert(frame)
        var position = frame.pts ?? placed
        // A device's timestamps jitter by a few milliseconds; within 20 ms the samples are taken as
        // contiguous (cutting or padding for jitter would click). The first frame is always placed.
        if placed > 0, abs(position - placed) < Int64(sampleRate / 50) { position = placed }
        var skip = 0
        if position > placed {
            try pad(to: placed + min(position - placed, Int64(sampleRate) * 10))
        } else if position < placed {
            skip = Int(placed - position)
        }
        try fifo.write(converted, skipping: skip)
        placed += Int64(max(0, converted.sampleCount - skip))
        return converted.sampleCount > skip
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
        }
        _ = try encoder.send(try frame.map { f throws(AVFailure) in try encoder.adapt(f, with: &encoderFormat) })
        if let frame {
            // Counted once the encoder took them: a refused frame is not in the file.
            samplesSent += Int64(frame.sampleCount)
            stats.audioSamples.add(frame.sampleCount, ordering: .relaxed)
        }
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
