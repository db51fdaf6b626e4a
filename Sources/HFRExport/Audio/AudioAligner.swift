import HFRMedia

/// Puts decoded source audio on the export's source timeline: sample 0 is the range start. Audio
/// that starts later is preceded by silence, audio before the start is skipped, and nothing past
/// the range end is passed on.
struct AudioAligner {
    let sampleRate: Int
    let channels: Int
    /// Source time (as the stream's timestamps count it) of timeline sample 0.
    let start: Rational
    /// Samples the timeline holds.
    let total: Int64
    /// Samples passed on so far.
    private(set) var placed: Int64 = 0
    /// Samples the consumer has taken so far (its own bookkeeping).
    var routed: Int64 = 0
    private var isStarted = false

    init(sampleRate: Int, channels: Int, start: Rational, total: Int64) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.start = start
        self.total = total
    }

    /// The part of `chunk` (decoded at source time `time`) that belongs on the timeline.
    /// Only the first chunk's time is used; the track is taken as contiguous after it.
    mutating func align(_ chunk: AudioChunk, at time: Rational?) -> AudioChunk {
        var chunk = chunk
        if !isStarted {
            isStarted = true
            let position = ((time ?? start) - start) * Rational(Int64(sampleRate))
            let offset = position.rounded()
            if offset > 0 {
                var lead = AudioChunk(silence: Int(min(offset, total)), channels: channels)
                lead.append(chunk)
                chunk = lead
            } else if offset < 0 {
                // The first −offset samples fall before the start (−Int64.min would overflow: a
                // damaged time may say the track starts 2⁶³ samples early).
                placed = max(offset, -.max)
            }
        }
        var from = 0
        if placed < 0 {
            from = Int(min(-placed, Int64(chunk.count)))
            placed += Int64(from)
        }
        let room = Int(max(0, total - max(placed, 0)))
        let to = min(chunk.count, from + room)
        guard to > from else { return AudioChunk(planes: Array(repeating: [], count: channels)) }
        placed += Int64(to - from)
        return from == 0 && to == chunk.count ? chunk : chunk.slice(from, to)
    }

    /// Samples of silence `remainder` hands out at a time.
    static let silenceBlock: Int64 = 1 << 16

    /// The next silence up to the end of the timeline, when the track ended early: at most
    /// `silenceBlock` samples a call, empty once the timeline is full. In blocks: a track that
    /// ends an hour before its video (or whose damaged times say so) needs no hour of samples
    /// in memory.
    mutating func remainder() -> AudioChunk {
        let n = min(max(0, total - max(placed, 0)), AudioAligner.silenceBlock)
        placed = max(placed, 0) + n
        return AudioChunk(silence: Int(n), channels: channels)
    }
}
