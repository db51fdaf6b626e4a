import Synchronization

/// Counters the stages update and the status line reads, from any thread.
public final class RecordStats: Sendable {
    public let captured = Atomic<Int>(0)
    public let droppedLate = Atomic<Int>(0)
    /// Frames missing from the source's own timestamps (a camera that skipped frames).
    public let missingFromSource = Atomic<Int>(0)
    /// Frames the driver dropped (gaps in its sequence numbers) by the last frame; -1 for a source
    /// that does not count them (then `missingFromSource` says what it lost).
    public let droppedBySource = Atomic<Int>(-1)
    public let encoded = Atomic<Int>(0)
    /// Camera JPEGs the decode stage found corrupt (skipped; added to the source's corrupt count).
    public let corruptPictures = Atomic<Int>(0)
    public let audioSamples = Atomic<Int>(0)
    public let bytes = Atomic<Int>(0)
    public let maxQueueDepth = Atomic<Int>(0)
    /// The first frame's wall-clock time (CLOCK_REALTIME µs; 0 until it arrives): a clip's first
    /// frame is dated from it and the capture clock.
    let firstFrameWall = Atomic<Int64>(0)
    /// Bytes of the frames waiting for the encoder (with `--buffer ram`), as of the last status.
    public let heldBytes = Atomic<Int>(0)
    /// When the capture ended (`Clock.monotonicMicroseconds`), 0 while it runs: what the encoder
    /// does after it is saving the frames held.
    public let captureEndedAt = Atomic<Int64>(0)
    // Frames per temporal layer 0…3 (Atomic is noncopyable, so no array of them).
    private let layer0 = Atomic<Int>(0)
    private let layer1 = Atomic<Int>(0)
    private let layer2 = Atomic<Int>(0)
    private let layer3 = Atomic<Int>(0)

    public init() {}

    var firstFrameWallMicroseconds: Int64? {
        let wall = firstFrameWall.load(ordering: .relaxed)
        return wall == 0 ? nil : wall
    }

    func countLayer(_ temporalID: Int) {
        switch temporalID {
        case 0: layer0.add(1, ordering: .relaxed)
        case 1: layer1.add(1, ordering: .relaxed)
        case 2: layer2.add(1, ordering: .relaxed)
        default: layer3.add(1, ordering: .relaxed)
        }
    }

    /// Frames encoded per temporal layer, index = temporal id.
    public var layerCounts: [Int] {
        [
            layer0.load(ordering: .relaxed), layer1.load(ordering: .relaxed), layer2.load(ordering: .relaxed),
            layer3.load(ordering: .relaxed),
        ]
    }

    func noteQueueDepth(_ depth: Int) {
        var current = maxQueueDepth.load(ordering: .relaxed)
        while depth > current {
            let (exchanged, original) = maxQueueDepth.compareExchange(
                expected: current, desired: depth, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }
}
