/// Finds the sample where each sharp onset (a beep, a clap, a hit) begins, on the export's source
/// timeline: the places a stretch must restart so the onset lands where the time map puts it.
///
/// Stretchers spread sound over their windows: WSOLA copies a window at speed 1, so an onset near
/// a window's end comes out up to (factor − 1) × window early, and a phase vocoder smears it
/// before itself by about as much (Rubber Band 3.1 put the start of a 20 ms beep 56 ms early at
/// 8×). Started at the onset, both put it in place; started a little before it, they put it
/// (factor − 1) times that early, so the start is found to the sample.
///
/// An onset is a 1 ms block whose peak is at least `rise` times the loudest block of the 20 ms
/// before it (5 ms apart, so a rise over a few ms counts) and above `floor`. It begins at the first
/// sample, from 5 ms before that block, reaching a tenth of the loudest peak of the 5 ms after it
/// (and twice the level before): the pre-echo an AAC encoder spreads ahead of a beep can make the
/// block before it count, but not the place it begins. A sample's level is its loudest channel's,
/// so all channels restart together.
struct OnsetDetector {
    /// Block peak over the 20 ms before, for a block to be an onset (12 dB).
    static let rise: Float = 4
    /// Quietest onset peak (−40 dBFS).
    static let floor: Float = 0.01
    /// Onsets closer than this to the previous one are not separate (50 ms).
    let spacing: Int64
    let blockLength: Int
    private let backgroundBlocks = 20
    /// Blocks between the background and the block tested; also searched for the start.
    private let gapBlocks = 5
    /// Blocks after the onset block whose peak sets the start's level.
    private let settleBlocks = 5
    /// Peaks of the last blocks, newest last.
    private var peaks: [Float] = []
    /// Per-sample levels of the last blocks: where an onset starts.
    private var recent: [Float] = []
    private var blockPeak: Float = 0
    private var inBlock = 0
    /// Samples seen so far.
    private(set) var position: Int64 = 0
    /// An onset block found, waiting for the blocks after it: its background, the loudest peak
    /// since, and how many blocks are still to come.
    private var pending: (background: Float, peak: Float, blocksLeft: Int)?
    /// Where onsets begin (timeline samples), in order.
    private(set) var onsets: [Int64] = []

    init(sampleRate: Int) {
        blockLength = max(1, sampleRate / 1000)
        spacing = Int64(sampleRate / 20)
    }

    mutating func feed(_ chunk: AudioChunk) {
        for i in 0..<chunk.count {
            var level: Float = 0
            for plane in chunk.planes { level = max(level, abs(plane[i])) }
            recent.append(level)
            blockPeak = max(blockPeak, level)
            inBlock += 1
            position += 1
            if inBlock == blockLength { endBlock() }
        }
    }

    /// The end of the input: an onset still waiting for its following blocks is placed now.
    mutating func finish() {
        if let found = pending { place(found.background, found.peak) }
        pending = nil
    }

    private mutating func endBlock() {
        let peak = blockPeak
        if var found = pending {
            found.peak = max(found.peak, peak)
            found.blocksLeft -= 1
            pending = found
            if found.blocksLeft == 0 {
                place(found.background, found.peak)
                pending = nil
            }
        } else {
            let background = peaks.dropLast(gapBlocks).suffix(backgroundBlocks).max() ?? 0
            let sinceLast = position - (onsets.last ?? Int64.min / 2)
            if peak >= OnsetDetector.floor, peak >= OnsetDetector.rise * background, sinceLast >= spacing {
                pending = (background, peak, settleBlocks)
            }
        }
        peaks.append(peak)
        if peaks.count > backgroundBlocks + gapBlocks { peaks.removeFirst(peaks.count - backgroundBlocks - gapBlocks) }
        let keep = (gapBlocks + 1 + settleBlocks) * blockLength
        if recent.count > keep { recent.removeFirst(recent.count - keep) }
        blockPeak = 0
        inBlock = 0
    }

    /// Records the onset: the first held sample reaching the level its peak sets.
    private mutating func place(_ background: Float, _ peak: Float) {
        let threshold = max(0.1 * peak, 2 * background)
        guard let first = recent.firstIndex(where: { $0 >= threshold }) else { return }
        onsets.append(position - Int64(recent.count - first))
    }
}
