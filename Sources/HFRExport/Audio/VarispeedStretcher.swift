import HFRMedia

/// Tape-style speed change: resampling (swresample), so the pitch follows the speed.
///
/// Speed n/d is a resampling from rate R·n to R·d: each input sample becomes d/n output samples,
/// which are then played at R.
final class VarispeedStretcher: AudioStretcher {
    private let resampler: Resampler
    private let channels: Int
    /// What this resampling is, as a failure names it: "varispeed" (`--audio varispeed`), or the
    /// change of rate an encoder needs (`kind` .inputData: the rates are the input's).
    private let stage: String
    private let kind: FailureKind

    init(
        speed: Rational, sampleRate: Int, channels: Int, stage: String = "varispeed", kind: FailureKind = .system
    ) throws(ExportFailure) {
        self.channels = channels
        self.stage = stage
        self.kind = kind
        let rate = Int64(sampleRate)
        // An eased step's exact speed (terms in the tens of thousands) as near as terms
        // swresample takes: the piece is cut to its exact length after.
        let speed = VarispeedStretcher.nearest(speed, limit: Int64(Int32.max - 1) / max(1, rate))
        guard let from = Int(exactly: rate * speed.numerator), let to = Int(exactly: rate * speed.denominator),
            from < Int(Int32.max), to < Int(Int32.max)
        else { throw .failed(StageFailure("\(stage): speed \(speed) is too fine for resampling", kind: kind)) }
        resampler = try ExportFailure.during(stage, as: kind) {
            try Resampler(planarFloatChannels: channels, from: from, to: to)
        }
    }

    func process(_ input: AudioChunk) throws(ExportFailure) -> AudioChunk {
        guard !input.isEmpty else { return AudioChunk(planes: []) }
        return try convert(input)
    }

    /// `value` itself when both its terms are at most `limit`, else the last continued-fraction
    /// convergent whose terms are (the closest fraction that small, within 1/(d·d')).
    static func nearest(_ value: Rational, limit: Int64) -> Rational {
        guard value.numerator > limit || value.denominator > limit else { return value }
        var (p0, q0, p1, q1): (Int64, Int64, Int64, Int64) = (0, 1, 1, 0)
        var (n, d) = (value.numerator, value.denominator)
        while d != 0 {
            let a = n / d
            let (p2, q2) = (a * p1 + p0, a * q1 + q0)
            guard p2 <= limit, q2 <= limit else { break }
            (p0, q0, p1, q1) = (p1, q1, p2, q2)
            (n, d) = (d, n - a * d)
        }
        return q1 == 0 ? value : Rational(p1, q1)
    }

    func finish() throws(ExportFailure) -> AudioChunk { try convert(nil) }

    private func convert(_ input: AudioChunk?) throws(ExportFailure) -> AudioChunk {
        let count = input?.count ?? 0
        let source = PlanarBuffer(channels: channels, capacity: count)
        if let input { source.load(input, from: 0, count: count) }
        let capacity = resampler.outputCapacity(forInput: count)
        let target = PlanarBuffer(channels: channels, capacity: capacity)
        let produced = try ExportFailure.during(stage, as: kind) {
            try resampler.convert(
                source.constPointers.map { UnsafeRawPointer($0) }, count: input == nil ? nil : count,
                into: target.mutablePointers.map { UnsafeMutableRawPointer($0) }, capacity: capacity)
        }
        return target.chunk(produced)
    }
}
