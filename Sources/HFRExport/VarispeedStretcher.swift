import HFRMedia

/// Tape-style speed change: resampling (swresample), so the pitch follows the speed.
///
/// Speed n/d is a resampling from rate R·n to R·d: each input sample becomes d/n output samples,
/// which are then played at R.
final class VarispeedStretcher: AudioStretcher {
    private let resampler: Resampler
    private let channels: Int

    init(speed: Rational, sampleRate: Int, channels: Int) throws(ExportFailure) {
        self.channels = channels
        let rate = Int64(sampleRate)
        guard let from = Int(exactly: rate * speed.numerator), let to = Int(exactly: rate * speed.denominator),
            from < Int(Int32.max), to < Int(Int32.max)
        else { throw .processing("varispeed: speed \(speed) is too fine for resampling") }
        do {
            resampler = try Resampler(planarFloatChannels: channels, from: from, to: to)
        } catch {
            throw .processing("varispeed: \(error)")
        }
    }

    func process(_ input: AudioChunk) throws(ExportFailure) -> AudioChunk {
        guard !input.isEmpty else { return AudioChunk(planes: []) }
        return try convert(input)
    }

    func finish() throws(ExportFailure) -> AudioChunk { try convert(nil) }

    private func convert(_ input: AudioChunk?) throws(ExportFailure) -> AudioChunk {
        let count = input?.count ?? 0
        let source = PlanarBuffer(channels: channels, capacity: count)
        if let input { source.load(input, from: 0, count: count) }
        let capacity = resampler.outputCapacity(forInput: count)
        let target = PlanarBuffer(channels: channels, capacity: capacity)
        do {
            let produced = try resampler.convert(
                source.constPointers.map { UnsafeRawPointer($0) }, count: input == nil ? nil : count,
                into: target.mutablePointers.map { UnsafeMutableRawPointer($0) }, capacity: capacity)
            return target.chunk(produced)
        } catch {
            throw .processing("varispeed: \(error)")
        }
    }
}
