import CFFmpeg
import HFRMedia

/// The audio thread: converts samples to the AAC encoder's format, re-chunks them to its frame size,
/// and encodes them with timestamps counted in samples (so audio length is exact).
final class AudioEncodeStage: @unchecked Sendable {
    let encoder: Encoder
    let fifo: AudioFIFO
    let sampleRate: Int
    let layout: AVChannelLayout
    let stats: RecordStats
    private var resampler: Resampler?
    private var samplesSent: Int64 = 0
    private(set) var failure: String?

    init(sampleRate: Int, channels: Int, stats: RecordStats) throws(AVFailure) {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        let chosen = layout
        encoder = try Encoder(name: "aac") { ctx in
            ctx.pointee.sample_rate = Int32(sampleRate)
            ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
            ctx.pointee.ch_layout = chosen
            ctx.pointee.bit_rate = Int64(64_000 * channels)
            ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
            // MP4 and MKV carry the AAC setup in the container header.
            ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        fifo = try AudioFIFO(format: AV_SAMPLE_FMT_FLTP, channels: channels)
        self.sampleRate = sampleRate
        self.layout = layout
        self.stats = stats
    }

    var timeBase: Rational { Rational(1, Int64(sampleRate)) }

    func run(from frames: BoundedQueue<Frame>, to mux: BoundedQueue<MuxItem>) {
        defer { mux.finish() }
        do {
            while let frame = frames.pop() {
                let converted = try convert(frame)
                try fifo.write(converted)
                while fifo.count >= encoder.frameSize {
                    guard try encode(fifo.read(encoder.frameSize, layout: layout, sampleRate: sampleRate), mux)
                    else { return frames.cancel() }
                }
            }
            if fifo.count > 0 {
                _ = try encode(fifo.read(fifo.count, layout: layout, sampleRate: sampleRate), mux)
            }
            _ = try encode(nil, mux)
        } catch {
            failure = "\(error)"
            frames.cancel()
        }
    }

    private func convert(_ frame: Frame) throws(AVFailure) -> Frame {
        let f = frame.pointer.pointee
        if f.format == AV_SAMPLE_FMT_FLTP.rawValue, Int(f.sample_rate) == sampleRate,
            f.ch_layout.nb_channels == layout.nb_channels
        {
            return frame
        }
        if resampler == nil {
            resampler = try Resampler(
                from: (channelLayoutName(f.ch_layout) ?? "mono", AVSampleFormat(f.format), Int(f.sample_rate)),
                to: (channelLayoutName(layout) ?? "mono", AV_SAMPLE_FMT_FLTP, sampleRate))
        }
        let out = try Frame()
        var outLayout = layout
        av_channel_layout_copy(&out.pointer.pointee.ch_layout, &outLayout)
        out.pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        out.pointer.pointee.sample_rate = Int32(sampleRate)
        try resampler!.convert(frame, into: out)
        return out
    }

    /// Encodes `frame` (nil flushes) and forwards the packets; false when the muxer has gone.
    private func encode(_ frame: Frame?, _ mux: BoundedQueue<MuxItem>) throws(AVFailure) -> Bool {
        if let frame {
            frame.pts = samplesSent
            samplesSent += Int64(frame.sampleCount)
            stats.audioSamples.add(frame.sampleCount, ordering: .relaxed)
        }
        _ = try encoder.send(frame)
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
