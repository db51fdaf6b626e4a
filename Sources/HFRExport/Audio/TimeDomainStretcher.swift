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
///
/// An eased piece (all the steps of an ease, from its start or an onset inside it) is one stretcher
/// whose tempo follows the map sequence by sequence (`TempoCourse`), so the sound runs on through
/// the steps without a join.
final class TimeDomainStretcher: AudioStretcher {
    private let lane: SoundTouchLane
    /// Output samples still to drop at the start (speeding up places sound late).
    private var drop: Int
    /// Samples to feed before the first input: the pre-roll, and how many more it needs.
    private var head: (preRoll: AudioChunk, missing: Int)?
    /// Input samples fed before the piece's first.
    private let fed: Int
    /// An eased piece's course; nil: one tempo throughout.
    private var course: TempoCourse?

    /// `tempo`: playback speed (0.25 = four times longer); `preRoll`: the samples just before the
    /// piece (fewer near the start of the timeline: there the first samples mirrored stand in, so
    /// sound that starts with the timeline starts with the first output sample).
    convenience init(tempo: Rational, sampleRate: Int, channels: Int, preRoll: AudioChunk) throws(ExportFailure) {
        let lead = try TimeDomainStretcher.calibration(tempo: tempo, sampleRate: sampleRate).lead
        self.init(
            lane: try SoundTouchLane(tempo: tempo.doubleValue, sampleRate: sampleRate, channels: channels),
            tempo: tempo.doubleValue, lead: Int(lead.rounded()), preRoll: preRoll)
    }

    /// An eased piece: `map` holds (input sample, output sample) of the piece from (0, 0) to its
    /// end, rising in both (the step boundaries inside it); the tempo follows it. Its tempos are
    /// hundreds, so each calibration is interpolated between tempos measured on a grid of
    /// `easedGrid` per octave (`interpolated`) rather than measured for it.
    convenience init(map: [(input: Int64, output: Int64)], sampleRate: Int, channels: Int, preRoll: AudioChunk)
        throws(ExportFailure)
    {
        let points = map.map { (input: Double($0.input), output: Double($0.output)) }
        let speeds = zip(points, points.dropFirst()).map { a, b in (b.input - a.input) / (b.output - a.output) }
        var table: [Double: Calibration] = [:]
        for step in TimeDomainStretcher.gridSteps(from: speeds.min() ?? 1, to: speeds.max() ?? 1) {
            table[step] = try TimeDomainStretcher.calibration(
                tempo: Rational(approximating: exp2(step / TimeDomainStretcher.easedGrid)), sampleRate: sampleRate)
        }
        let start = speeds.first ?? 1
        let lead = Int(TimeDomainStretcher.interpolated(table, at: start).lead.rounded())
        self.init(
            lane: try SoundTouchLane(tempo: start, sampleRate: sampleRate, channels: channels), tempo: start,
            lead: lead, preRoll: preRoll)
        course = TempoCourse(points: points, fed: Double(fed), dropped: Double(drop)) {
            TimeDomainStretcher.interpolated(table, at: $0).offset
        }
    }

    private init(lane: SoundTouchLane, tempo: Double, lead: Int, preRoll: AudioChunk) {
        self.lane = lane
        // `lead` output samples early = lead × tempo input samples of pre-roll.
        fed = max(0, Int((Double(lead) * tempo).rounded()))
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
            try feed(lead)
        }
        try feed(input)
        return trimmed(lane.receive())
    }

    /// Puts `input` into the stretcher: at once at one tempo; along an eased course in parts of
    /// half a sequence's input or less (so a part makes one sequence at most), the tempo set before
    /// each.
    private func feed(_ input: AudioChunk) throws(ExportFailure) {
        guard let course else { return try lane.put(input) }
        var offset = 0
        while offset < input.count {
            let at = lane.position
            let tempo = course.tempo(consumed: at.consumed, produced: at.produced, sequence: at.sequence)
            try lane.setTempo(tempo)
            let n = min(input.count - offset, max(1, Int(tempo * Double(at.sequence) / 2)))
            try lane.put(input, range: offset..<offset + n)
            offset += n
        }
    }

    func finish() throws(ExportFailure) -> AudioChunk {
        guard let course else {
            try lane.flush()
            return trimmed(lane.receive())
        }
        // SoundTouch's flush stops at the output its tempos at each put promise, which falls short
        // of the piece while the tempo changes: silence is fed along the course instead until the
        // piece's last output sample is made.
        var output = lane.receive()
        let needed = Int64(course.points[course.points.count - 1].output + course.dropped)
        let silence = AudioChunk(silence: 1024, channels: lane.channels)
        for _ in 0..<TimeDomainStretcher.silenceLimit where lane.position.produced < needed {
            try feed(silence)
            output.append(lane.receive())
        }
        return trimmed(output)
    }

    /// Most blocks of silence an eased piece's end is fed (a guard: it needs a few).
    private static let silenceLimit = 1000

    private func trimmed(_ chunk: AudioChunk) -> AudioChunk {
        guard drop > 0 else { return chunk }
        let n = min(drop, chunk.count)
        drop -= n
        return chunk.slice(n, chunk.count)
    }

    /// Most pre-roll any tempo asks for: the retimer keeps this much of the timeline.
    static func preRollLimit(sampleRate: Int) -> Int { sampleRate / 10 }

    /// How SoundTouch places sound at one tempo, measured on a fresh stretcher.
    struct Calibration {
        /// Output samples by which sound lands early (positive) or late (negative).
        var lead: Double
        /// Output samples after the stretcher's output position at which sound at its input
        /// position lands (consumed input = tempo × produced output + a constant while the tempo
        /// holds: sound there lands constant ÷ tempo − lead after the output position).
        var offset: Double
    }

    private static let calibrations = Locked<[String: Calibration]>([:])

    /// Tempos measured per octave for an eased piece.
    static let easedGrid = 8.0

    /// The grid steps (log₂ tempo × `easedGrid`) whose tempos enclose `slowest`…`fastest`.
    static func gridSteps(from slowest: Double, to fastest: Double) -> [Double] {
        Array(
            stride(
                from: (log2(slowest) * easedGrid).rounded(.down), through: (log2(fastest) * easedGrid).rounded(.up),
                by: 1))
    }

    /// The calibration at `tempo` interpolated between the grid steps around it in `table`
    /// (both change smoothly with the tempo), or the nearest one held.
    static func interpolated(_ table: [Double: Calibration], at tempo: Double) -> Calibration {
        let position = log2(tempo) * easedGrid
        let below = position.rounded(.down)
        guard let a = table[below], let b = table[below + 1] else {
            let nearest = table.keys.min { abs($0 - position) < abs($1 - position) }
            return nearest.flatMap { table[$0] } ?? Calibration(lead: 0, offset: 0)
        }
        let f = position - below
        return Calibration(lead: a.lead + (b.lead - a.lead) * f, offset: a.offset + (b.offset - a.offset) * f)
    }

    /// How SoundTouch places sound at `tempo`: the lead from the energy centroid of a 1 kHz burst
    /// (Gaussian, σ 10 ms) centred at 0.25 s, the offset from where the stretcher is once it has
    /// taken the burst.
    static func calibration(tempo: Rational, sampleRate: Int) throws(ExportFailure) -> Calibration {
        let key = "\(tempo)@\(sampleRate)"
        if let known = calibrations.withLock({ $0[key] }) { return known }
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
        let at = probe.position
        try probe.flush()
        output.append(probe.receive())
        var weighted = 0.0
        var total = 0.0
        for (i, x) in (output.planes.first ?? []).enumerated() {
            weighted += Double(i) * Double(x * x)
            total += Double(x * x)
        }
        let expected = 0.25 * rate / tempo.doubleValue
        let lead = total > 0 ? expected - weighted / total : 0
        let constant = Double(at.consumed) - tempo.doubleValue * Double(at.produced)
        let measured = Calibration(lead: lead, offset: constant / tempo.doubleValue - lead)
        calibrations.withLock { $0[key] = measured }
        return measured
    }
}
