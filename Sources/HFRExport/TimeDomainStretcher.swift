import Foundation
import HFRMedia

/// WSOLA time stretch, pitch kept: libavfilter's `atempo`, chained because one instance only
/// covers tempos 0.5…100 (a 4× slow-down is `atempo=0.5,atempo=0.5`).
///
/// atempo does not report its start delay: its output places sound early (about 49 ms at 4×, more
/// the longer the chain) and squeezes the first window. So the delay is measured once per chain on
/// a short test burst, each segment is preceded by a pre-roll of silence (long enough to cover
/// atempo's start-up), and the output of the pre-roll minus the measured delay is dropped: sound
/// lands where the time map puts it, and real audio starts at the first output sample. WSOLA moves
/// sound by up to half its search window depending on the signal, so placement is exact only to
/// within about ±25 ms (spectral, Rubber Band, is exact to about 1 ms).
final class TimeDomainStretcher: AudioStretcher {
    private let graph: FilterGraph
    private let frames: AudioFrames
    private var pts: Int64 = 0
    /// Output samples still to insert (positive) or to drop (negative) at the start.
    private var shift: Int
    /// Silent source samples fed before the first real ones.
    private var preroll: Int

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
        let delay = try TimeDomainStretcher.startDelay(description, sampleRate: sampleRate, tempo: tempo)
        let speed = tempo.doubleValue
        let margin = Double(abs(delay)) + 0.05 * Double(sampleRate)
        preroll = Int(max(0.2 * Double(sampleRate), margin * speed).rounded(.up))
        shift = -(Int((Double(preroll) / speed).rounded()) + delay)
    }

    private static let delays = Locked<[String: Int]>([:])

    /// Output samples by which `description` places sound late (positive) or early (negative),
    /// from the energy centroid of a 1 kHz burst (Gaussian, σ 10 ms) centred at 0.25 s.
    static func startDelay(_ description: String, sampleRate: Int, tempo: Rational) throws(ExportFailure) -> Int {
        let key = "\(description)@\(sampleRate)"
        if let known = delays.withLock({ $0[key] }) { return known }
        let rate = Double(sampleRate)
        let burst = (0..<sampleRate / 2).map { i -> Float in
            let t = Double(i) / rate
            let envelope = exp(-((t - 0.25) * (t - 0.25)) / (2 * 0.01 * 0.01))
            return Float(envelope * sin(2 * Double.pi * 1000 * t))
        }
        let probe = try TimeDomainStretcher(description: description, sampleRate: sampleRate)
        // Fed in 1024-sample frames, as decoded AAC arrives: atempo's placement depends on it.
        var output = AudioChunk(planes: [[]])
        for start in stride(from: 0, to: burst.count, by: 1024) {
            output.append(try probe.process(AudioChunk(planes: [Array(burst[start..<min(start + 1024, burst.count)])])))
        }
        output.append(try probe.finish())
        let samples = output.planes.first ?? []
        var weighted = 0.0
        var total = 0.0
        for (i, x) in samples.enumerated() {
            weighted += Double(i) * Double(x * x)
            total += Double(x * x)
        }
        let expected = 0.25 * rate / tempo.doubleValue
        let delay = total > 0 ? Int((weighted / total - expected).rounded()) : 0
        delays.withLock { $0[key] = delay }
        return delay
    }

    /// An uncompensated mono chain, for measuring.
    private init(description: String, sampleRate: Int) throws(ExportFailure) {
        frames = AudioFrames(sampleRate: sampleRate, channels: 1)
        do {
            graph = try FilterGraph(
                description: description, isAudio: true,
                sourceArguments:
                    "time_base=1/\(sampleRate):sample_rate=\(sampleRate):sample_fmt=fltp:channel_layout=mono")
        } catch {
            throw .processing("atempo: \(error)")
        }
        shift = 0
        preroll = 0
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
            if preroll > 0 {
                let silence = try frames.frame(from: AudioChunk(silence: preroll, channels: frames.channels), pts: 0)
                pts = Int64(preroll)
                preroll = 0
                try graph.push(silence)
            }
            let frame = try frames.frame(from: input, pts: pts)
            pts += Int64(input.count)
            try graph.push(frame)
            return compensate(try drain())
        } catch {
            throw .processing("atempo: \(error)")
        }
    }

    func finish() throws(ExportFailure) -> AudioChunk {
        do {
            try graph.push(nil)
            return compensate(try drain())
        } catch {
            throw .processing("atempo: \(error)")
        }
    }

    /// Applies the start-delay shift to the first output.
    private func compensate(_ chunk: AudioChunk) -> AudioChunk {
        guard shift != 0 else { return chunk }
        if shift > 0 {
            var lead = AudioChunk(silence: shift, channels: frames.channels)
            lead.append(chunk)
            shift = 0
            return lead
        }
        let n = min(-shift, chunk.count)
        shift += n
        return chunk.slice(n, chunk.count)
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
