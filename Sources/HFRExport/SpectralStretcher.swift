import Foundation

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
        _ = inParallel { c in
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
        output.append(joined(inParallel { c in lanes[c].finish().planes.first ?? [] }, isFinal: true))
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
            inParallel { c in lanes[c].process(AudioChunk(planes: [input.planes[c]])).planes.first ?? [] },
            isFinal: isFinal)
    }

    /// Runs `body` for every channel at once; each call touches only its own lane and slot.
    private func inParallel(_ body: @escaping (Int) -> [Float]) -> [[Float]] {
        let work = ParallelWork(count: lanes.count, body: body)
        DispatchQueue.concurrentPerform(iterations: lanes.count) { c in work.run(c) }
        return work.results
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

/// One parallel step: a result slot per iteration, written only by that iteration, read after
/// `concurrentPerform` returns (which orders the writes before the read).
private final class ParallelWork: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<[Float]>
    private let body: (Int) -> [Float]

    init(count: Int, body: @escaping (Int) -> [Float]) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: [])
        self.body = body
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    func run(_ index: Int) { slots[index] = body(index) }

    var results: [[Float]] { Array(slots) }
}
