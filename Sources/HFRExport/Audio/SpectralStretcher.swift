import Foundation
import HFRMedia

/// Rubber Band's phase-vocoder stretch, pitch kept (see `RubberBandLane`): one offline instance per
/// channel, run side by side on the cores. Rubber Band's default already stretches channels apart,
/// so this only divides the work; the lanes' outputs are joined sample-aligned.
final class SpectralStretcher: AudioStretcher {
    private let lanes: [RubberBandLane]
    /// Output one lane produced ahead of another, held back until all have it.
    private var carry: [[Float]]

    /// - Parameters:
    ///   - ratio: output length ÷ input length.
    ///   - keyFrames: (input sample, output sample) pairs pinning the map.
    init(sampleRate: Int, channels: Int, ratio: Double, expectedInput: Int, keyFrames: [(Int, Int)]) {
        lanes = (0..<channels).map { _ in
            RubberBandLane(
                sampleRate: sampleRate, channels: 1, ratio: ratio, expectedInput: expectedInput, keyFrames: keyFrames)
        }
        carry = Array(repeating: [], count: channels)
    }

    /// First pass: lets Rubber Band see all of the input (`isFinal` on the last call).
    func study(_ input: AudioChunk, isFinal: Bool) {
        let lanes = self.lanes
        _ = inParallel(lanes.count) { c in
            lanes[c].study(AudioChunk(planes: [input.planes[c]]), isFinal: isFinal)
            return []
        }
    }

    func process(_ input: AudioChunk) throws(ExportFailure) -> AudioChunk {
        // Work is handed to the lanes in batches: per decoded frame (1024 samples) the threads
        // would spend more time waking up than stretching.
        pending.append(input)
        guard pending.count >= SpectralStretcher.batch else { return AudioChunk(planes: []) }
        return runBatch(isFinal: false)
    }

    func finish() throws(ExportFailure) -> AudioChunk {
        var output = runBatch(isFinal: false)
        let lanes = self.lanes
        output.append(joined(inParallel(lanes.count) { c in lanes[c].finish().planes.first ?? [] }, isFinal: true))
        return output
    }

    private static let batch = 16384
    private var pending = AudioChunk(planes: [])

    private func runBatch(isFinal: Bool) -> AudioChunk {
        let input = pending
        pending = AudioChunk(planes: [])
        guard !input.isEmpty else { return AudioChunk(planes: Array(repeating: [], count: lanes.count)) }
        let lanes = self.lanes
        return joined(
            inParallel(lanes.count) { c in lanes[c].process(AudioChunk(planes: [input.planes[c]])).planes.first ?? [] },
            isFinal: isFinal)
    }

    /// The samples every lane has produced (all of them at the end, the short ones padded).
    private func joined(_ outputs: [[Float]], isFinal: Bool) -> AudioChunk {
        for c in carry.indices { carry[c] += outputs[c] }
        let counts = carry.map(\.count)
        let n = (isFinal ? counts.max() : counts.min()) ?? 0
        let planes = carry.map { lane in
            lane.count >= n ? Array(lane[0..<n]) : lane + [Float](repeating: 0, count: n - lane.count)
        }
        carry = carry.map { $0.count > n ? Array($0[n...]) : [] }
        return AudioChunk(planes: planes)
    }
}
