import CFFmpeg
import HFRMedia

/// WSOLA time stretch, pitch kept: libavfilter's `atempo`, chained because one instance only
/// covers tempos 0.5…100 (a 4× slow-down is `atempo=0.5,atempo=0.5`).
final class TimeDomainStretcher: AudioStretcher {
    private let graph: FilterGraph
    private let frames: AudioFrames
    private var pts: Int64 = 0

    /// `tempo`: playback speed (0.25 = four times longer).
    init(tempo: Rational, sampleRate: Int, channels: Int) throws(ExportFailure) {
        frames = AudioFrames(sampleRate: sampleRate, channels: channels)
        let description = TimeDomainStretcher.chain(tempo).map { "atempo=\($0)" }.joined(separator: ",")
        do {
            graph = try FilterGraph(
                description: description, isAudio: true,
                sourceArguments:
                    "time_base=1/\(sampleRate):sample_rate=\(sampleRate):sample_fmt=fltp:channel_layout=\(frames.layoutName)"
            )
        } catch {
            throw .processing("atempo: \(error)")
        }
    }

    /// Factors within atempo's range whose product is `tempo`.
    static func chain(_ tempo: Rational) -> [Double] {
        var rest = tempo.doubleValue
        var factors: [Double] = []
        while rest < 0.5 {
            factors.append(0.5)
            rest /= 0.5
        }
        while rest > 100 {
            factors.append(100)
            rest /= 100
        }
        factors.append(rest)
        return factors
    }

    func process(_ input: AudioChunk) throws(ExportFailure) -> AudioChunk {
        guard !input.isEmpty else { return AudioChunk(planes: []) }
        do {
            let frame = try frames.frame(from: input, pts: pts)
            pts += Int64(input.count)
            try graph.push(frame)
            return try drain()
        } catch {
            throw .processing("atempo: \(error)")
        }
    }

    func finish() throws(ExportFailure) -> AudioChunk {
        do {
            try graph.push(nil)
            return try drain()
        } catch {
            throw .processing("atempo: \(error)")
        }
    }

    private func drain() throws(AVFailure) -> AudioChunk {
        var output = AudioChunk(planes: Array(repeating: [], count: frames.channels))
        let frame = try Frame()
        while case .value = try graph.pull(into: frame) {
            output.append(frames.chunk(from: frame))
            frame.unref()
        }
        return output
    }
}
