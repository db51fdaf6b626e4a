import HFRMedia

/// Makes the output's audio: decodes the source track, lines it up with the video's source time,
/// stretches each piece of the time map (see `AudioPiece`) with a stretcher of its own to exactly
/// the samples its output span holds, and encodes. An ease is one piece (cut at onsets): spectral
/// pins its steps with Rubber Band key frames, time-domain steers one SoundTouch's tempo along them
/// (`TempoCourse`). (One Rubber Band instance with a key-frame map for the whole ramp was tried: it
/// eases into a new ratio and placed sound up to 32 ms early just after a boundary.)
final class AudioRetimer {
    let algorithm: ExportSettings.AudioAlgorithm
    let sampleRate: Int
    let channels: Int
    /// FFmpeg's name of the output's channel layout: the source's when its channels are kept.
    let layout: String?
    let sourceTimeBase: Rational
    let sink: AudioEncoderSink
    private let decoder: Decoder
    private let frames: AudioFrames
    private var aligner: AudioAligner
    private let plan: ExportPlan
    private var pieces: [AudioPiece]
    private var pieceIndex = 0
    /// The current piece's stretcher, made when its first sample arrives.
    private var stretcher: AudioStretcher?
    private var produced: Int64 = 0
    private let decoded: Frame
    /// Spectral: reads the track ahead of the export, each piece's samples for Rubber Band's study
    /// just before the piece is stretched (so only one piece's Rubber Band instances are alive).
    private var studyReader: TimelineAudioReader?
    /// Time-domain: the last samples routed, the pre-roll of the next piece's stretcher.
    private var recent: AudioChunk

    /// Key frames per second of source audio in each spectral stretcher's map: they pin the exact
    /// linear map inside a piece, since Rubber Band's offline stretch otherwise spreads the ratio
    /// unevenly (less over onsets, more over steady sound).
    static let keyFramesPerSecond: Int64 = 10

    /// Channels of the retimed track: the source's where its encoder has a layout for them (PCM
    /// any number; AAC, Vorbis, FLAC and ALAC 1–8: mono to 7.1), else a stereo downmix.
    static func channels(keeping source: Int, codec: String) -> Int {
        codec.hasPrefix("pcm_") || (1...8).contains(source) ? source : 2
    }

    /// Total output samples.
    let outputSamples: Int64

    init(
        parameters: CodecParameters, info: StreamInfo, plan: ExportPlan, origin: Rational,
        algorithm: ExportSettings.AudioAlgorithm, codec: String
    ) throws(ExportFailure) {
        self.algorithm = algorithm
        sampleRate = info.sampleRate
        channels = AudioRetimer.channels(keeping: info.channels, codec: codec)
        // Lossless codecs keep any layout; AAC and Vorbis get their standard one (5.1(side) written
        // as AAC needs a PCE, which FFmpeg reads back as no layout at all).
        let keepsLayout = channels == info.channels && Encoder.isLosslessAudio(codec)
        layout = keepsLayout ? info.channelLayout : nil
        sourceTimeBase = info.timeBase
        decoder = try AudioRetimer.openDecoder(parameters, info: info)
        try AudioOutput.requireDescribed(info)
        let (rate, count, layout) = (sampleRate, channels, layout)
        let stage = "audio track #\(info.index) (--audio \(algorithm.rawValue)): audio encoder \(codec)"
        sink = try ExportFailure.during(stage) {
            try AudioEncoderSink(
                codec: codec, sampleRate: rate, channels: count, layout: layout, bits: info.bitsPerSample)
        }
        decoded = try ExportFailure.during("allocating a frame") { try Frame() }
        frames = AudioFrames(sampleRate: sampleRate, channels: channels, layout: layout)
        self.plan = plan
        let pieces = AudioPiece.segments(
            of: plan, sampleRate: sampleRate, joiningEases: algorithm == .spectral || algorithm == .timeDomain)
        self.pieces = pieces
        outputSamples = AudioRetimer.outputSamples(pieces)
        aligner = AudioAligner(
            sampleRate: sampleRate, channels: channels, start: plan.audioStart + origin,
            total: ((plan.end - plan.audioStart) * Rational(Int64(sampleRate))).rounded())
        recent = AudioChunk(planes: Array(repeating: [], count: channels))
    }

    /// Before the export writes (spectral and time-domain with something to stretch): finds the
    /// onsets in the track from its own reader of `path` and cuts the pieces there; spectral opens
    /// the reader its study passes take each piece from.
    func prepare(path: String, streamIndex: Int) throws(ExportFailure) {
        guard algorithm == .spectral || algorithm == .timeDomain,
            pieces.contains(where: { $0.speed != Rational(1) || $0.isEased })
        else { return }
        let scan = try TimelineAudioReader(
            path: path, streamIndex: streamIndex, timeBase: sourceTimeBase, aligner: aligner, layout: layout)
        var detector = OnsetDetector(sampleRate: sampleRate)
        while true {
            let chunk = try scan.next()
            guard !chunk.isEmpty else { break }
            detector.feed(chunk)
        }
        detector.finish()
        let plan = self.plan
        let r = Rational(Int64(sampleRate))
        let sampleRate = self.sampleRate
        // A quarter of a millisecond.
        pieces = AudioPiece.split(pieces, at: detector.onsets, margin: Int64(sampleRate / 4000)) { s in
            AudioPiece.outputSample(at: plan.audioStart + Rational(s) / r, plan: plan, sampleRate: sampleRate)
        }
        if algorithm == .spectral {
            studyReader = try TimelineAudioReader(
                path: path, streamIndex: streamIndex, timeBase: sourceTimeBase, aligner: aligner, layout: layout)
        }
    }

    /// The samples `pieces` make, in all.
    static func outputSamples(_ pieces: [AudioPiece]) -> Int64 {
        pieces.last.map { $0.outputStart + $0.outputCount } ?? 0
    }

    /// The decoder of the track `info`; bad input when the track's configuration (an AAC `esds`)
    /// opens none.
    static func openDecoder(_ parameters: CodecParameters, info: StreamInfo) throws(ExportFailure) -> Decoder {
        try ExportFailure.during("audio decoder configuration is corrupt", as: .inputData) {
            try Decoder(parameters: parameters, timeBase: info.timeBase, threads: 1)
        }
    }

    /// Hands `decoder` a packet (nil: the end), then every frame it gives back to `body`: how the
    /// retimer decodes, and how the dry run (`PlannedRetime`) checks the packets it would retime.
    static func decode(
        _ packet: Packet?, _ decoder: borrowing Decoder, into frame: Frame,
        _ body: (Frame) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        if let packet {
            _ = try ExportFailure.during("corrupt audio packet", as: .inputData) { try decoder.send(packet) }
        } else {
            _ = try? decoder.send(nil)
        }
        while true {
            let state = try ExportFailure.during("corrupt audio", as: .inputData) { try decoder.receive(into: frame) }
            guard case .value = state else { return }
            try body(frame)
        }
    }

    /// Where the study reader is on the timeline.
    private var studied: Int64 = 0

    /// A Rubber Band stretcher for `piece`, its whole input studied (offline Rubber Band studies
    /// before it stretches). Key frames pin the exact linear map inside the piece.
    private func studiedSpectralStretcher(_ piece: AudioPiece) throws(ExportFailure) -> SpectralStretcher {
        guard let reader = studyReader else { throw .processing("spectral stretch without its study pass") }
        if let reason = RubberBandLane.loadFailure {
            throw .unavailable("the spectral audio stretch needs Rubber Band (librubberband2): \(reason)")
        }
        let length = piece.sourceEnd - piece.sourceStart
        // At least a sample apart: a damaged sample rate may be below 10 Hz.
        let spacing = max(1, Int64(sampleRate) / AudioRetimer.keyFramesPerSecond)
        let keyFrames =
            piece.isEased
            ? easedKeyFrames(piece)
            : stride(from: spacing, to: length, by: Int(spacing)).map { k in
                (Int(k), Int((Rational(k * piece.outputCount, max(1, length))).rounded()))
            }
        let stretcher = SpectralStretcher(
            sampleRate: sampleRate, channels: channels,
            ratio: length > 0 ? Double(piece.outputCount) / Double(length) : 1, expectedInput: Int(length),
            keyFrames: keyFrames)
        let block: Int64 = 1 << 16
        // Speed-1 pieces before this one are not studied: their samples are passed over.
        while studied < piece.sourceStart {
            let skipped = try reader.read(Int(min(piece.sourceStart - studied, block))).count
            guard skipped > 0 else { break }
            studied += Int64(skipped)
        }
        var left = length
        repeat {
            let chunk = try reader.read(Int(min(left, block)))
            left -= Int64(chunk.count)
            stretcher.study(chunk, isFinal: left <= 0 || chunk.isEmpty)
            if chunk.isEmpty { break }
        } while left > 0
        studied = piece.sourceEnd
        return stretcher
    }

    /// An eased piece's key frames: each step boundary inside it, where the map puts it (rising in
    /// both, as Rubber Band's map and `TempoCourse` need).
    private func easedKeyFrames(_ piece: AudioPiece) -> [(Int, Int)] {
        let r = Rational(Int64(sampleRate))
        var keyFrames: [(Int, Int)] = []
        for s in plan.map.segments.dropFirst() {
            let source = ((s.start - plan.audioStart) * r).rounded()
            guard source > piece.sourceStart, source < piece.sourceEnd else { continue }
            let input = Int(source - piece.sourceStart)
            let output = Int(
                AudioPiece.outputSample(at: s.start, plan: plan, sampleRate: sampleRate) - piece.outputStart)
            // Rubber Band's map must rise in both.
            if let last = keyFrames.last, input <= last.0 || output <= last.1 { continue }
            guard output > 0, output < piece.outputCount else { continue }
            keyFrames.append((input, output))
        }
        return keyFrames
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
        while case let silence = aligner.remainder(), !silence.isEmpty { try route(silence, output, stream) }
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
                if algorithm == .timeDomain { remember(part) }
                aligner.routed += Int64(n)
                offset += n
            }
            if aligner.routed >= piece.sourceEnd { try closePiece(output, stream) }
        }
    }

    private func currentStretcher() throws(ExportFailure) -> AudioStretcher {
        if let made = stretcher { return made }
        let piece = pieces[pieceIndex]
        let made: AudioStretcher
        switch algorithm {
        case _ where piece.speed == Rational(1) && !piece.isEased: made = PassthroughStretcher()
        case .timeDomain where piece.isEased && piece.sourceEnd > piece.sourceStart && piece.outputCount > 0:
            let steps = easedKeyFrames(piece).map { (input: Int64($0.0), output: Int64($0.1)) }
            made = try TimeDomainStretcher(
                map: [(0, 0)] + steps + [(piece.sourceEnd - piece.sourceStart, piece.outputCount)],
                sampleRate: sampleRate, channels: channels, preRoll: recent)
        case .timeDomain:
            made = try TimeDomainStretcher(
                tempo: piece.speed, sampleRate: sampleRate, channels: channels, preRoll: recent)
        case .varispeed: made = try VarispeedStretcher(speed: piece.speed, sampleRate: sampleRate, channels: channels)
        case .spectral: made = try studiedSpectralStretcher(piece)
        case .mute: preconditionFailure("mute has no audio")
        }
        stretcher = made
        return made
    }

    /// Keeps the last samples routed (as many as a pre-roll takes).
    private func remember(_ part: AudioChunk) {
        let limit = TimeDomainStretcher.preRollLimit(sampleRate: sampleRate)
        if part.count >= limit {
            recent = part.slice(part.count - limit, part.count)
            return
        }
        recent.append(part)
        if recent.count > limit { recent = recent.slice(recent.count - limit, recent.count) }
    }

    /// Ends the current piece: the stretcher's tail, then padded to its exact length.
    private func closePiece(_ output: any PacketSink, _ stream: Int) throws(ExportFailure) {
        try emit(try currentStretcher().finish(), output, stream)
        stretcher = nil
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
