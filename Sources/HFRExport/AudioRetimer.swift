import CFFmpeg
import HFRMedia

/// Makes the output's audio: decodes the source track, lines it up with the video's source time,
/// stretches each segment of the time map to exactly the samples its output span holds, and encodes.
///
/// Exact lengths per segment keep A/V sync at every ramp boundary: a segment from source time a to b
/// produces round(map(b)·R) − round(map(a)·R) samples, padded or cut by at most a few milliseconds.
final class AudioRetimer {
    /// A stretch of source samples that becomes `outputCount` output samples with one stretcher.
    struct Piece {
        var sourceEnd: Int64
        var outputCount: Int64
        var speed: Rational
    }

    let algorithm: ExportSettings.AudioAlgorithm
    let sampleRate: Int
    let channels: Int
    let sourceTimeBase: Rational
    let sink: AudioEncoderSink
    private let decoder: Decoder
    private let frames: AudioFrames
    private var aligner: AudioAligner
    private let pieces: [Piece]
    private var pieceIndex = 0
    private var stretcher: AudioStretcher?
    private var produced: Int64 = 0
    private var spectral: SpectralStretcher?
    private let decoded: Frame

    /// Total output samples.
    let outputSamples: Int64

    init(
        parameters: UnsafePointer<AVCodecParameters>, info: StreamInfo, plan: ExportPlan, origin: Rational,
        algorithm: ExportSettings.AudioAlgorithm
    ) throws(ExportFailure) {
        self.algorithm = algorithm
        sampleRate = info.sampleRate
        channels = max(1, min(info.channels, 2))
        sourceTimeBase = info.timeBase
        do {
            decoder = try Decoder(parameters: parameters, timeBase: info.timeBase, threads: 1)
            sink = try AudioEncoderSink(sampleRate: sampleRate, channels: channels)
            decoded = try Frame()
        } catch {
            throw .processing("audio: \(error)")
        }
        frames = AudioFrames(sampleRate: sampleRate, channels: channels)
        let r = Rational(Int64(sampleRate))
        let base = plan.map.outputTime(at: plan.start)
        func sourceSample(_ t: Rational) -> Int64 { ((t - plan.start) * r).rounded() }
        func outputSample(_ t: Rational) -> Int64 { ((plan.map.outputTime(at: t) - base) * r).rounded() }
        var pieces: [Piece] = []
        var previousOutput: Int64 = 0
        for s in plan.map.segments {
            let end = min(s.end ?? plan.end, plan.end)
            guard end > plan.start, s.start < plan.end else { continue }
            let out = outputSample(end)
            pieces.append(Piece(sourceEnd: sourceSample(end), outputCount: out - previousOutput, speed: s.speed))
            previousOutput = out
        }
        self.pieces = pieces
        outputSamples = previousOutput
        aligner = AudioAligner(
            sampleRate: sampleRate, channels: channels, start: plan.start + origin, total: sourceSample(plan.end))
        if algorithm == .spectral {
            // One stretcher for the whole map; its key frames pin each segment boundary.
            var keyFrames: [(Int, Int)] = []
            var outputSoFar: Int64 = 0
            for p in pieces.dropLast() {
                outputSoFar += p.outputCount
                keyFrames.append((Int(p.sourceEnd), Int(outputSoFar)))
            }
            let total = pieces.last?.sourceEnd ?? 0
            spectral = SpectralStretcher(
                sampleRate: sampleRate, channels: channels,
                ratio: total > 0 ? Double(outputSamples) / Double(total) : 1, expectedInput: Int(total),
                keyFrames: keyFrames)
        }
    }

    /// Spectral only: the study pass over the whole track, from its own reader of `path`.
    func study(path: String, streamIndex: Int) throws(ExportFailure) {
        guard let spectral else { return }
        var aligner = self.aligner
        do {
            let demuxer = try Demuxer(url: path)
            demuxer.discardStreams(except: [streamIndex])
            let decoder = try demuxer.withCodecParameters(ofStream: streamIndex) { (p) throws(AVFailure) in
                try Decoder(parameters: p, timeBase: sourceTimeBase, threads: 1)
            }
            let packet = try Packet()
            let frame = try Frame()
            var more = true
            while more {
                more = try demuxer.read(into: packet)
                guard !more || packet.streamIndex == streamIndex else { continue }
                _ = try decoder.send(more ? packet : nil)
                while case .value = try decoder.receive(into: frame) {
                    let chunk = aligner.align(frames.chunk(from: frame), at: time(of: frame))
                    if !chunk.isEmpty { spectral.study(chunk, isFinal: false) }
                    frame.unref()
                }
            }
            spectral.study(aligner.remainder(), isFinal: true)
        } catch {
            throw .reading(error)
        }
    }

    private func time(of frame: Frame) -> Rational? {
        let pts = Packet.optionalTimestamp(frame.pointer.pointee.best_effort_timestamp)
        return pts.map { Rational.seconds($0, in: sourceTimeBase) }
    }

    /// Decodes one source packet and passes its samples on.
    func push(_ packet: Packet, to muxer: borrowing Muxer, stream: Int) throws(ExportFailure) {
        do {
            _ = try decoder.send(packet)
        } catch {
            throw .badInput("corrupt audio packet (\(error))")
        }
        try drainDecoder(muxer, stream)
    }

    /// Flushes the decoder, fills a short track with silence, and finishes every piece.
    func finish(to muxer: borrowing Muxer, stream: Int) throws(ExportFailure) {
        _ = try? decoder.send(nil)
        try drainDecoder(muxer, stream)
        try route(aligner.remainder(), muxer, stream)
        while pieceIndex < pieces.count { try closePiece(muxer, stream) }
        do {
            try sink.finish(to: muxer, stream: stream)
        } catch {
            throw .writing(error)
        }
    }

    private func drainDecoder(_ muxer: borrowing Muxer, _ stream: Int) throws(ExportFailure) {
        while true {
            let state: Drain<Void>
            do {
                state = try decoder.receive(into: decoded)
            } catch {
                throw .badInput("corrupt audio (\(error))")
            }
            guard case .value = state else { return }
            let chunk = aligner.align(frames.chunk(from: decoded), at: time(of: decoded))
            decoded.unref()
            try route(chunk, muxer, stream)
        }
    }

    /// Splits `chunk` at piece boundaries and feeds each part to its piece's stretcher.
    private func route(_ chunk: AudioChunk, _ muxer: borrowing Muxer, _ stream: Int) throws(ExportFailure) {
        var offset = 0
        while offset < chunk.count, pieceIndex < pieces.count {
            let piece = pieces[pieceIndex]
            let room = Int(piece.sourceEnd - aligner.routed)
            let n = min(room, chunk.count - offset)
            if n > 0 {
                let part = chunk.slice(offset, offset + n)
                try emit(try currentStretcher().process(part), muxer, stream)
                aligner.routed += Int64(n)
                offset += n
            }
            if aligner.routed >= piece.sourceEnd { try closePiece(muxer, stream) }
        }
    }

    private func currentStretcher() throws(ExportFailure) -> AudioStretcher {
        if let stretcher { return stretcher }
        let piece = pieces[pieceIndex]
        let made: AudioStretcher
        switch algorithm {
        case .spectral: made = spectral!
        case .timeDomain: made = try TimeDomainStretcher(tempo: piece.speed, sampleRate: sampleRate, channels: channels)
        case .varispeed: made = try VarispeedStretcher(speed: piece.speed, sampleRate: sampleRate, channels: channels)
        case .mute: preconditionFailure("mute has no audio track")
        }
        stretcher = made
        return made
    }

    /// Ends the current piece: the stretcher's tail, then cut or padded to its exact length.
    /// With `spectral` one stretcher spans every piece, so only the last piece flushes it.
    private func closePiece(_ muxer: borrowing Muxer, _ stream: Int) throws(ExportFailure) {
        let isLast = pieceIndex == pieces.count - 1
        if algorithm != .spectral || isLast {
            try emit(try currentStretcher().finish(), muxer, stream)
            stretcher = nil
        }
        let target = pieces[0...pieceIndex].reduce(Int64(0)) { $0 + $1.outputCount }
        if algorithm != .spectral || isLast {
            if produced < target {
                try write(AudioChunk(silence: Int(target - produced), channels: channels), muxer, stream)
            }
        }
        pieceIndex += 1
    }

    /// Writes stretched output, never past the end of the current piece (or the whole map for spectral).
    private func emit(_ chunk: AudioChunk, _ muxer: borrowing Muxer, _ stream: Int) throws(ExportFailure) {
        let limitPiece = algorithm == .spectral ? pieces.count - 1 : pieceIndex
        let limit = pieces[0...min(limitPiece, pieces.count - 1)].reduce(Int64(0)) { $0 + $1.outputCount }
        let n = Int(max(0, min(Int64(chunk.count), limit - produced)))
        guard n > 0 else { return }
        try write(n == chunk.count ? chunk : chunk.slice(0, n), muxer, stream)
    }

    private func write(_ chunk: AudioChunk, _ muxer: borrowing Muxer, _ stream: Int) throws(ExportFailure) {
        do {
            try sink.write(chunk, to: muxer, stream: stream)
        } catch {
            throw .writing(error)
        }
        produced += Int64(chunk.count)
    }
}

extension Packet {
    /// nil for FFmpeg's "no timestamp".
    static func optionalTimestamp(_ value: Int64) -> Int64? { value == HFR_AV_NOPTS_VALUE ? nil : value }
}
