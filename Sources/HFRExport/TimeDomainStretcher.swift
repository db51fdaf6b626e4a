import Foundation
import HFRMedia

/// WSOLA time stretch, pitch kept: SoundTouch (see `SoundTouchLane`), one per piece of the time map.
///
/// WSOLA copies windows of the input at speed 1 and spaces their starts by the tempo: a window's
/// start is in place and its end is early (slowing down) or late (speeding up), so sound lands
/// early by about half a window times the factor less one. That lead is measured once per tempo on
/// a test burst and taken out by feeding as many samples from before the piece first (its
/// `preRoll`, the timeline's own samples before the piece start): sound is then centred on its
/// place. A sharp onset starts its own piece (see `OnsetDetector`), so it lands that lead late at
/// most (6 ms at 8×). SoundTouch counts its own output: after `finish` it has given
/// tempo⁻¹ × input samples; the caller cuts or pads the piece to its exact length.
final class TimeDomainStretcher: AudioStretcher {
    private let lane: SoundTouchLane
    /// Output samples still to drop at the start (speeding up places sound late).
    private var drop: Int
    /// Samples to feed before the first input: the pre-roll, and how many more it needs.
    private var head: (preRoll: AudioChunk, missing: Int)?

    /// `tempo`: playback speed (0.25 = four times longer); `preRoll`: the samples just before the
    /// piece (fewer near the start of the timeline: there the first samples mirrored stand in, so
    /// sound that starts with the timeline starts with the first output sample).
    /// `isEased`: a step of an eased change of speed, whose tempo is one of hundreds: its lead is
    /// interpolated between tempos measured on a grid (`easedLead`) rather than measured for it.
    init(tempo: Rational, sampleRate: Int, channels: Int, preRoll: AudioChunk, isEased: Bool = false)
        throws(ExportFailure)
    {
        lane = try SoundTouchLane(tempo: tempo.doubleValue, sampleRate: sampleRate, channels: channels)
        let lead =
            isEased
            ? try TimeDomainStretcher.easedLead(tempo: tempo, sampleRate: sampleRate)
            : try TimeDomainStretcher.lead(tempo: tempo, sampleRate: sampleRate)
        // `lead` output samples early = lead × tempo input samples of pre-roll.
        let fed = max(0, Int((Double(lead) * tempo.doubleValue).rounded()))
        drop = max(0, -lead)
        if fed > 0 {
            let kept = preRoll.count > fed ? preRoll.slice(preRoll.count - fed, preRoll.count) : preRoll
            head = (kept, fed - kept.count)
        }
    }

    func process(_ input: AudioChunk) throws(ExportFailure) -> AudioChunk {
        guard !input.isEmpty else { return AudioChunk(planes: []) }
        if let (preRoll, missing) = head {
            head = nil
            // Short of history (the start of the timeline): the first known samples mirrored.
            var known = preRoll
            known.append(input.slice(0, min(input.count, missing + 1)))
            let mirrored = min(missing, known.count - 1)
            var lead = AudioChunk(silence: missing - mirrored, channels: lane.channels)
            lead.append(AudioChunk(planes: known.planes.map { Array($0[1..<(1 + mirrored)].reversed()) }))
            lead.append(preRoll)
            try lane.put(lead)
        }
        try lane.put(input)
        return trimmed(lane.receive())
    }

    func finish() throws(ExportFailure) -> AudioChunk {
        try lane.flush()
        return trimmed(lane.receive())
    }

    private func trimmed(_ chunk: AudioChunk) -> AudioChunk {
        guard drop > 0 else { return chunk }
        let n = min(drop, chunk.count)
        drop -= n
        return chunk.slice(n, chunk.count)
    }

    /// Most pre-roll any tempo asks for: the retimer keeps this much of the timeline.
    static func preRollLimit(sampleRate: Int) -> Int { sampleRate / 10 }

    private static let leads = Locked<[String: Int]>([:])

    /// Tempos measured per octave for `easedLead`.
    static let easedLeadGrid = 8.0

    /// The lead at `tempo` interpolated between the two tempos around it on a grid of
    /// `easedLeadGrid` per octave (the lead changes smoothly with the tempo).
    static func easedLead(tempo: Rational, sampleRate: Int) throws(ExportFailure) -> Int {
        let position = log2(tempo.doubleValue) * easedLeadGrid
        let below = position.rounded(.down)
        func measured(_ step: Double) throws(ExportFailure) -> Double {
            let t = Rational(approximating: exp2(step / easedLeadGrid))
            return Double(try lead(tempo: t, sampleRate: sampleRate))
        }
        let (a, b) = (try measured(below), try measured(below + 1))
        return Int((a + (b - a) * (position - below)).rounded())
    }

    /// Output samples by which SoundTouch places sound early (positive) or late (negative) at
    /// `tempo`, from the energy centroid of a 1 kHz burst (Gaussian, σ 10 ms) centred at 0.25 s.
    static func lead(tempo: Rational, sampleRate: Int) throws(ExportFailure) -> Int {
        let key = "\(tempo)@\(sampleRate)"
        if let known = leads.withLock({ $0[key] }) { return known }
        let rate = Double(sampleRate)
        let burst = (0..<sampleRate / 2).map { i -> Float in
            let t = Double(i) / rate
            let envelope = exp(-((t - 0.25) * (t - 0.25)) / (2 * 0.01 * 0.01))
            return Float(envelope * sin(2 * Double.pi * 1000 * t))
        }
        let probe = try SoundTouchLane(tempo: tempo.doubleValue, sampleRate: sampleRate, channels: 1)
        var output = AudioChunk(planes: [[]])
        // Fed in 1024-sample frames, as decoded AAC arrives.
        for start in stride(from: 0, to: burst.count, by: 1024) {
            try probe.put(AudioChunk(planes: [Array(burst[start..<min(start + 1024, burst.count)])]))
            output.append(probe.receive())
        }
        try probe.flush()
        output.append(probe.receive())
        var weighted = 0.0
        var total = 0.0
        for (i, x) in (output.planes.first ?? []).enumerated() {
            weighted += Double(i) * Double(x * x)
            total += Double(x * x)
        }
        let expected = 0.25 * rate / tempo.doubleValue
        let lead = total > 0 ? Int((expected - weighted / total).rounded()) : 0
        leads.withLock { $0[key] = lead }
        return lead
    }
}
