/// Planar float audio: one array per channel, all of the same length.
struct AudioChunk {
    var planes: [[Float]]

    init(planes: [[Float]]) { self.planes = planes }

    /// `count` samples of silence on each of `channels` channels.
    init(silence count: Int, channels: Int) {
        planes = Array(repeating: [Float](repeating: 0, count: max(0, count)), count: channels)
    }

    /// Samples per channel.
    var count: Int { planes.first?.count ?? 0 }
    var isEmpty: Bool { count == 0 }

    /// Samples [from, to) of each channel.
    func slice(_ from: Int, _ to: Int) -> AudioChunk {
        AudioChunk(planes: planes.map { Array($0[from..<to]) })
    }

    mutating func append(_ other: AudioChunk) {
        if planes.isEmpty {
            planes = other.planes
            return
        }
        for c in planes.indices where c < other.planes.count { planes[c] += other.planes[c] }
    }
}
