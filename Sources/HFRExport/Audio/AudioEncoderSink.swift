import HFRMedia

/// Encodes retimed audio (AAC, the source's PCM, or Vorbis: `Encoder.retimedAudioCodec`) in the
/// encoder's frame size, timestamps counted in samples, and hands the packets to the output's sink.
final class AudioEncoderSink {
    let encoder: Encoder
    let frames: AudioFrames
    let sampleRate: Int
    /// The encoder's name, as failures name its stage ("aac", "pcm_s24le").
    let codecName: String
    private var pending: AudioChunk
    private var samplesSent: Int64 = 0
    private let packet: Packet
    /// Planar float to the encoder's sample format, when it takes another (PCM, …).
    private var converter: Resampler?
    /// Samples per frame for encoders that take any number (PCM).
    static let anySize = 4096

    /// Audio at a rate the encoder does not take (AAC stops at 96 kHz) to the nearest it does.
    private let rateChange: VarispeedStretcher?

    /// `layout`: FFmpeg's name of the channel layout (nil: the default); `bits`: the source's bits
    /// per sample, which a lossless encoder keeps (0: 16).
    init(codec: String = "aac", sampleRate source: Int, channels: Int, layout: String? = nil, bits: Int = 0) throws {
        let sampleRate = AudioEncoderSink.sampleRate(codec: codec, source: source)
        encoder = try Encoder.retimedAudio(
            codec: codec, sampleRate: sampleRate, channels: channels, layout: layout, bits: bits > 0 ? bits : 16)
        frames = AudioFrames(sampleRate: sampleRate, channels: channels, layout: layout)
        self.sampleRate = sampleRate
        codecName = codec
        // Resampling by source/target, as a varispeed of that "speed" is (at a rate of 1: the counts).
        rateChange =
            sampleRate == source
            ? nil
            : try VarispeedStretcher(
                speed: Rational(Int64(source), Int64(sampleRate)), sampleRate: 1, channels: channels,
                stage: "resampling audio from \(source) to \(sampleRate) Hz for \(codec)", kind: .inputData)
        pending = AudioChunk(planes: Array(repeating: [], count: channels))
        packet = try Packet()
    }

    var timeBase: Rational { Rational(1, Int64(sampleRate)) }

    /// The rate `codec` is encoded at for audio at `source` Hz: AAC's nearest, else the source's.
    static func sampleRate(codec: String, source: Int) -> Int {
        codec == "aac" ? Encoder.aacSampleRate(nearest: source) : source
    }

    /// Samples handed to the encoder so far.
    var samplesWritten: Int64 { samplesSent + Int64(pending.count) }

    /// Queues `chunk` and encodes every whole encoder frame.
    func write(_ chunk: AudioChunk, to output: any PacketSink, stream: Int) throws(ExportFailure) {
        pending.append(try rateChange?.process(chunk) ?? chunk)
        let size = encoder.frameSize > 0 ? encoder.frameSize : AudioEncoderSink.anySize
        var offset = 0
        while pending.count - offset >= size {
            try encode(pending.slice(offset, offset + size), output, stream)
            offset += size
        }
        if offset > 0 { pending = pending.slice(offset, pending.count) }
    }

    /// Encodes what is left (a short last frame) and drains the encoder.
    func finish(to output: any PacketSink, stream: Int) throws(ExportFailure) {
        if let rateChange { pending.append(try rateChange.finish()) }
        if pending.count > 0 { try encode(pending, output, stream) }
        pending = AudioChunk(planes: Array(repeating: [], count: frames.channels))
        try send(nil, output, stream)
    }

    private func encode(_ chunk: AudioChunk, _ output: any PacketSink, _ stream: Int) throws(ExportFailure) {
        let frame = try ExportFailure.during("audio conversion for \(codecName)") {
            try encoder.adapt(frames.frame(from: chunk, pts: samplesSent), with: &converter)
        }
        samplesSent += Int64(chunk.count)
        try send(frame, output, stream)
    }

    /// Encodes `frame` (nil: drains the encoder) and hands the packets made to `output`.
    private func send(_ frame: Frame?, _ output: any PacketSink, _ stream: Int) throws(ExportFailure) {
        let stage = "audio encoder \(codecName)"
        _ = try ExportFailure.during(stage) { try encoder.send(frame) }
        while case .value = try ExportFailure.during(stage, { try encoder.receive(into: packet) }) {
            // The last packet covers a whole AAC frame; its duration is cut to the real samples so
            // the container's edit list ends the track exactly where the audio ends.
            if let pts = packet.pts, pts + packet.duration > samplesSent {
                packet.duration = max(0, samplesSent - pts)
            }
            try output.write(packet, from: timeBase, to: stream)
        }
    }
}
