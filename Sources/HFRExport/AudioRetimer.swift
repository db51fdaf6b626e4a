import HFRMedia

/// Makes the output's audio: decodes the source track, lines it up with the video's source time,
/// stretches each segment of the time map to exactly the samples its output span holds, and encodes.
///
/// Each segment has its own stretcher, and its output is cut or padded to exactly
/// round(map(b)·R) − round(map(a)·R) samples for source span [a, b): A/V sync cannot drift across
/// ramp boundaries. (One Rubber Band instance with a key-frame map for the whole ramp was tried:
/// it eases into a new ratio and placed sound up to 32 ms early just after a boundary.)
final class AudioRetimer {
    /// A stretch of source samples that becomes `outputCount` output samples with one stretcher.
    struct Piece {
        var sourceStart: Int64
        var sourceEnd: Int64
        var outputStart: Int64
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
    private var stretchers: [AudioStretcher?]
    private var produced: Int64 = 0
    private let decoded: Frame

    /// Key frames per second of source audio in each spectral stretcher's map: they pin the exact
    /// linear map inside a segment, since Rubber Band's offline stretch otherwise spreads the ratio
    /// unevenly (less over onsets, more over steady sound).
    static let keyFramesPerSecond: Int64 = 10

    /// Channels of the retimed track: the source's where FFmpeg's AAC encoder has a layout for
    /// them (1–6 and 8: mono to 5.1 and 7.1), else a stereo downmix.
    static func channels(keeping source: Int) -> Int {
        (1...6).contains(source) || source == 8 ? source : 2
    }

    /// Total output samples.
    let outputSamples: Int64

    init(
        parameters: CodecParameters, info: StreamInfo, plan: ExportPlan, origin: Rational,
        algorithm: ExportSettings.AudioAlgorithm, format: String
    ) throws(ExportFailure) {
        self.algorithm = algorithm
        sampleRate = info.sampleRate
        channels = AudioRetimer.channels(keeping: info.channels)
        sourceTimeBase = info.timeBase
        decoder = try AudioRetimer.openDecoder(parameters, info: info)
        do {
            sink = try AudioEncoderSink(
                codec: Encoder.retimedAudioCodec(source: info, format: format), sampleRate: sampleRate,
                channels: channels)
            decoded = try Frame()
        } catch {
            throw .processing("audio: \(error)")
        }
        frames = AudioFrames(sampleRate: sampleRate, channels: channels)
        let pieces = AudioRetimer.pieces(plan: plan, sampleRate: sampleRate)
        self.pieces = pieces
        outputSamples = AudioRetimer.outputSamples(pieces)
        aligner = AudioAligner(
            sampleRate: sampleRate, channels: channels, start: plan.start + origin,
            total: ((plan.end - plan.start) * Rational(Int64(sampleRate))).rounded())
        stretchers = Array(repeating: nil, count: pieces.count)
        if algorithm == .spectral {
            // Offline Rubber Band studies its whole input first, so these exist before the study pass.
            let spacing = Int64(sampleRate) / AudioRetimer.keyFramesPerSecond
            for (i, p) in pieces.enumerated() where p.speed != Rational(1) {
                let length = p.sourceEnd - p.sourceStart
                let keyFrames = stride(from: spacing, to: length, by: Int(spacing)).map { k in
                    (Int(k), Int((Rational(k * p.outputCount, max(1, length))).rounded()))
                }
                stretchers[i] = SpectralStretcher(
                    sampleRate: sampleRate, channels: channels,
                    ratio: length > 0 ? Double(p.outputCount) / Double(length) : 1, expectedInput: Int(length),
                    keyFrames: keyFrames)
            }
        }
    }

    /// The stretches of source samples (at `sampleRate`) each segment of the plan's time map
    /// becomes, and how many samples each makes: the retimer's, and the dry run's count of them.
    static func pieces(plan: ExportPlan, sampleRate: Int) -> [Piece] {
        let r = Rational(Int64(sampleRate))
        let base = plan.map.outputTime(at: plan.start)
        func sourceSample(_ t: Rational) -> Int64 { ((t - plan.start) * r).rounded() }
        func outputSample(_ t: Rational) -> Int64 { ((plan.map.outputTime(at: t) - base) * r).rounded() }
        var pieces: [Piece] = []
        for s in plan.map.segments {
            let start = max(s.start, plan.start)
            let end = min(s.end ?? plan.end, plan.end)
            guard end > start else { continue }
            let out = outputSample(start)
            pieces.append(
                Piece(
                    sourceStart: sourceSample(start), sourceEnd: sourceSample(end), outputStart: out,
                    outputCount: outputSample(end) - out, speed: s.speed))
        }
        return pieces
    }

    /// The samples `pieces` make, in all.
    static func outputSamples(_ pieces: [Piece]) -> Int64 {
        pieces.last.map { $0.outputStart + $0.outputCount } ?? 0
    }

    /// The decoder of the track `info`; bad input when the track's configuration (an AAC `esds`)
    /// opens none.
    static func openDecoder(_ parameters: CodecParameters, info: StreamInfo) throws(ExportFailure) -> Decoder {
        do {
            return try Decoder(parameters: parameters, timeBase: info.timeBase, threads: 1)
        } catch {
            throw .badInput("audio decoder configuration is corrupt (\(error))")
        }
    }

    /// Hands `decoder` a packet (nil: the end), then every frame it gives back to `body`: how the
    /// retimer decodes, and how the dry run (`PlannedRetime`) checks the packets it would retime.
    static func decode(
        _ packet: Packet?, _ decoder: borrowing Decoder, into frame: Frame,
        _ body: (Frame) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        if let packet {
            do {
                _ = try decoder.send(packet)
            } catch {
                throw .badInput("corrupt audio packet (\(error))")
            }
        } else {
            _ = try? decoder.send(nil)
        }
        while true {
            let state: Drain<Void>
            do {
                state = try decoder.receive(into: frame)
            } catch {
                throw .badInput("corrupt audio (\(error))")
            }
            guard case .value = state else { return }
            try body(frame)
        }
    }

    /// Spectral only: the study pass over the whole track, from its own reader of `path`.
    func study(path: String, streamIndex: Int) throws(ExportFailure) {
        guard algorithm == .spectral else { return }
        var aligner = self.aligner
        var piece = 0
        var position: Int64 = 0
        func feed(_ chunk: AudioChunk) {
            var offset = 0
            while offset < chunk.count, piece < pieces.count {
                let n = Int(min(Int64(chunk.count - offset), pieces[piece].sourceEnd - position))
                let part = n == chunk.count ? chunk : chunk.slice(offset, offset + n)
                position += Int64(n)
                offset += n
                let isEnd = position >= pieces[piece].sourceEnd
                (stretchers[piece] as? SpectralStretcher)?.study(part, isFinal: isEnd)
                if isEnd { piece += 1 }
            }
        }
        do {
            let demuxer = try Demuxer(url: path)
            demuxer.discardStreams(except: [streamIndex])
            let decoder = try Decoder(
                parameters: demuxer.codecParameters(ofStream: streamIndex), timeBase: sourceTimeBase, threads: 1)
            let packet = try Packet()
            let frame = try Frame()
            var more = true
            while more {
                more = try demuxer.read(into: packet)
                guard !more || packet.streamIndex == streamIndex else { continue }
                _ = try decoder.send(more ? packet : nil)
                while case .value = try decoder.receive(into: frame) {
                    feed(aligner.align(frames.chunk(from: frame), at: time(of: frame)))
                    frame.unref()
                }
            }
            feed(aligner.remainder())
        } catch  where error.isInvalidData || error.stage == .decoding {
            throw .badInput("corrupt audio (\(error.operation): \(error.message))")
        } catch {
            throw .reading(error)
        }
    }

    private func time(of frame: Frame) -> Rational? {
        frame.bestEffortTimestamp.map { Rational.seconds($0, in: sourceTimeBase) }
    }

    /// Decodes one source packet (nil: flushes the decoder) and passes its samples on.
    func push(_ packet: Packet?, to output: any PacketSink, stream: Int) throws(ExportFailure) {
        try AudioRetimer.decode(packet, decoder, into: decoded) { (frame) throws(ExportFailure) in
            let chunk = aligner.align(frames.chunk(from: frame), at: time(of: frame))
            frame.unref()
            try route(chunk, output, stream)
        }
    }

    /// Flushes the decoder, fills a short track with silence, and finishes every piece.
    func finish(to output: any PacketSink, stream: Int) throws(ExportFailure) {
        try push(nil, to: output, stream: stream)
        try route(aligner.remainder(), output, stream)
        while pieceIndex < pieces.count { try closePiece(output, stream) }
        try sink.finish(to: output, stream: stream)
    }

    /// Splits `chunk` at piece boundaries and feeds each part to its piece's stretcher.
    private func route(_ chunk: AudioChunk, _ output: any PacketSink, _ stream: Int) throws(ExportFailure) {
        var offset = 0
        while offset < chunk.count, pieceIndex < pieces.count {
            let piece = pieces[pieceIndex]
            let n = Int(min(piece.sourceEnd - aligner.routed, Int64(chunk.count - offset)))
            if n > 0 {
                let part = n == chunk.count ? chunk : chunk.slice(offset, offset + n)
                try emit(try currentStretcher().process(part), output, stream)
                aligner.routed += Int64(n)
                offset += n
            }
            if aligner.routed >= piece.sourceEnd { try closePiece(output, stream) }
        }
    }

    private func currentStretcher() throws(ExportFailure) -> AudioStretcher {
        if let made = stretchers[pieceIndex] { return made }
        let piece = pieces[pieceIndex]
        let made: AudioStretcher
        switch algorithm {
        case _ where piece.speed == Rational(1): made = PassthroughStretcher()
        case .timeDomain: made = try TimeDomainStretcher(tempo: piece.speed, sampleRate: sampleRate, channels: channels)
        case .varispeed: made = try VarispeedStretcher(speed: piece.speed, sampleRate: sampleRate, channels: channels)
        case .spectral, .mute: preconditionFailure("spectral stretchers are made up front; mute has no audio")
        }
        stretchers[pieceIndex] = made
        return made
    }

    /// Ends the current piece: the stretcher's tail, then padded to its exact length.
    private func closePiece(_ output: any PacketSink, _ stream: Int) throws(ExportFailure) {
        try emit(try currentStretcher().finish(), output, stream)
        stretchers[pieceIndex] = nil
        let piece = pieces[pieceIndex]
        let target = piece.outputStart + piece.outputCount
        if produced < target {
            try write(AudioChunk(silence: Int(target - produced), channels: channels), output, stream)
        }
        pieceIndex += 1
    }

    /// Writes stretched output, never past the end of the current piece.
    private func emit(_ chunk: AudioChunk, _ output: any PacketSink, _ stream: Int) throws(ExportFailure) {
        let piece = pieces[pieceIndex]
        let n = Int(max(0, min(Int64(chunk.count), piece.outputStart + piece.outputCount - produced)))
        guard n > 0 else { return }
        try write(n == chunk.count ? chunk : chunk.slice(0, n), output, stream)
    }

    private func write(_ chunk: AudioChunk, _ output: any PacketSink, _ stream: Int) throws(ExportFailure) {
        try sink.write(chunk, to: output, stream: stream)
        produced += Int64(chunk.count)
    }
}
