import HFRMedia

/// A track's audio on the export's source timeline (see `AudioAligner`), read in order from its own
/// demuxer: for the passes that look at the sound before the export writes it (finding onsets,
/// Rubber Band's study of each piece).
final class TimelineAudioReader {
    private let demuxer: Demuxer
    private let decoder: Decoder
    private let streamIndex: Int
    private let timeBase: Rational
    private let frames: AudioFrames
    private var aligner: AudioAligner
    private let packet: Packet
    private let frame: Frame
    private var isDrained = false
    /// Decoded samples, handed out from `heldFrom` on.
    private var held: AudioChunk
    private var heldFrom = 0

    /// `layout`: FFmpeg's name of the channel layout the samples are read in (the retimer's).
    init(
        path: String, streamIndex: Int, timeBase: Rational, aligner: AudioAligner, layout: String?
    ) throws(ExportFailure) {
        self.streamIndex = streamIndex
        self.timeBase = timeBase
        self.aligner = aligner
        frames = AudioFrames(sampleRate: aligner.sampleRate, channels: aligner.channels, layout: layout)
        held = AudioChunk(planes: Array(repeating: [], count: aligner.channels))
        do {
            let opened = try Demuxer(url: path)
            opened.discardStreams(except: [streamIndex])
            decoder = try Decoder(
                parameters: opened.codecParameters(ofStream: streamIndex), timeBase: timeBase, threads: 1)
            demuxer = opened
            packet = try Packet()
            frame = try Frame()
        } catch {
            throw TimelineAudioReader.failure(error)
        }
    }

    /// The next samples of the timeline, in order; empty once it is complete.
    func next() throws(ExportFailure) -> AudioChunk {
        if heldFrom < held.count {
            defer { (held, heldFrom) = (AudioChunk(planes: Array(repeating: [], count: aligner.channels)), 0) }
            return heldFrom == 0 ? held : held.slice(heldFrom, held.count)
        }
        while !isDrained, aligner.placed < aligner.total {
            let chunk = try decodeMore()
            if !chunk.isEmpty { return chunk }
        }
        return aligner.remainder()
    }

    /// The next `count` samples (fewer only where the timeline ends). What is left of a chunk
    /// stays where it is (`heldFrom`): slicing off the rest at each read would copy a long chunk
    /// over and over.
    func read(_ count: Int) throws(ExportFailure) -> AudioChunk {
        var output = AudioChunk(planes: Array(repeating: [], count: aligner.channels))
        while output.count < count {
            if heldFrom == held.count {
                (held, heldFrom) = (try next(), 0)
                if held.isEmpty { break }
            }
            let n = min(count - output.count, held.count - heldFrom)
            output.append(n == held.count ? held : held.slice(heldFrom, heldFrom + n))
            heldFrom += n
        }
        return output
    }

    /// Reads one packet (or flushes at the end) and returns what it decoded, aligned.
    private func decodeMore() throws(ExportFailure) -> AudioChunk {
        var output = AudioChunk(planes: Array(repeating: [], count: aligner.channels))
        do {
            let more = try demuxer.read(into: packet)
            guard !more || packet.streamIndex == streamIndex else { return output }
            _ = try decoder.send(more ? packet : nil)
            while case .value = try decoder.receive(into: frame) {
                let time = frame.bestEffortTimestamp.map { Rational.seconds($0, in: timeBase) }
                output.append(aligner.align(frames.chunk(from: frame), at: time))
                frame.unref()
            }
            isDrained = !more
        } catch {
            throw TimelineAudioReader.failure(error)
        }
        return output
    }

    private static func failure(_ error: AVFailure) -> ExportFailure {
        if error.isInvalidData || error.stage == .decoding {
            return .badInput("corrupt audio (\(error.operation): \(error.message))")
        }
        return .reading(error)
    }
}
