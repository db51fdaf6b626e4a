/// C-side storage for planar float audio: one buffer per channel, for the C APIs that take
/// `float **` (Rubber Band, swresample). Owned; freed with the object.
final class PlanarBuffer {
    let channels: Int
    let capacity: Int
    let buffers: [UnsafeMutablePointer<Float>]

    init(channels: Int, capacity: Int) {
        self.channels = channels
        self.capacity = max(1, capacity)
        let size = self.capacity
        buffers = (0..<channels).map { _ in
            let b = UnsafeMutablePointer<Float>.allocate(capacity: size)
            b.initialize(repeating: 0, count: size)
            return b
        }
    }

    deinit { buffers.forEach { $0.deallocate() } }

    /// Copies samples [from, from + count) of `chunk` to the start of the buffers.
    func load(_ chunk: AudioChunk, from: Int, count: Int) {
        for c in 0..<channels {
            chunk.planes[c].withUnsafeBufferPointer { src in
                buffers[c].update(from: src.baseAddress! + from, count: count)
            }
        }
    }

    /// The first `count` samples of each buffer as a chunk.
    func chunk(_ count: Int) -> AudioChunk {
        AudioChunk(planes: buffers.map { Array(UnsafeBufferPointer(start: $0, count: count)) })
    }

    /// `const float *const *` for the C call.
    var constPointers: [UnsafePointer<Float>?] { buffers.map { UnsafePointer($0) } }
    var mutablePointers: [UnsafeMutablePointer<Float>?] { buffers.map { $0 } }
}
