/// The decode times libavformat's muxer gives copied packets that have none (a Matroska input with
/// B-frames leaves the first ones without): each is the earliest of the presentation times of the
/// last `delay` + 1 such packets, the missing ones filled one duration apart before the first (FFmpeg
/// 5.1 `compute_muxer_pkt_fields`). An MP4's length is its decode span, so the plan needs them.
struct MuxerDecodeTimes: Sendable {
    /// The stream's reorder delay in frames (`video_delay`, kept by the copy).
    let delay: Int
    private var buffer: [Int64?]

    init(delay: Int) {
        self.delay = delay
        buffer = Array(repeating: nil, count: delay + 1)
    }

    /// The decode time the muxer writes for a packet presented at `pts` with decode time `dts`.
    mutating func dts(pts: Int64?, dts: Int64?, duration: Int64) -> Int64? {
        guard dts == nil, let pts, delay > 0, delay <= 16 else { return dts ?? (delay == 0 ? pts : nil) }
        buffer[0] = pts
        var i = 1
        while i < delay + 1, buffer[i] == nil {
            buffer[i] = pts + Int64(i - delay - 1) * duration
            i += 1
        }
        i = 0
        while i < delay, let a = buffer[i], let b = buffer[i + 1], a > b {
            buffer.swapAt(i, i + 1)
            i += 1
        }
        return buffer[0]
    }
}
