import HFRMedia

/// The bitstream facts of a file's video frames, read from a mapping of the file where its index
/// says each frame lies, a batch at a time (`IndexScan.forEachFrame`), each batch's halves on two
/// cores: a probe of a long file is mostly this parse.
///
/// A frame's parse depends on what came before it (`FrameParser`: an H.264 prefix NAL unit carried
/// from the packet before, the HEVC SPS's highest temporal id). The second half starts from a guess,
/// the batch's starting state moved on by the half's first frame's predecessor alone; when the first
/// half ends in another state (a prefix carried past a packet without slices, an SPS in the first
/// half), the second half is parsed again from the true one. The result is always the sequential one.
struct IndexFrameParse {
    private let file: MappedFile
    /// The state after the last frame parsed.
    private var parser: FrameParser

    /// Below this many frames a half is not worth a thread.
    static let parallelHalf = 512
    /// How far ahead of the frame it parses the CPU is asked to load a frame's first bytes.
    static let prefetchFrames = 16

    init(file: MappedFile, parser: FrameParser) {
        self.file = file
        self.parser = parser
    }

    /// The structure of each of `entries` (the next frames in decode order); nil for an entry
    /// outside the file.
    mutating func structures(of entries: [IndexEntry]) -> [FrameStructure?] {
        let half = entries.count / 2
        guard half >= IndexFrameParse.parallelHalf else {
            return IndexFrameParse.parse(entries[...], in: file, from: &parser)
        }
        let start = parser
        var guess = parser
        _ = IndexFrameParse.parse(entries[(half - 1)..<half], in: file, from: &guess)
        let file = self.file
        let halves = inParallel(2) { i -> ([FrameStructure?], FrameParser) in
            var state = i == 0 ? start : guess
            let range = i == 0 ? 0..<half : half..<entries.count
            return (IndexFrameParse.parse(entries[range], in: file, from: &state), state)
        }
        var (second, end) = halves[1]
        if halves[0].1 != guess {
            end = halves[0].1
            second = IndexFrameParse.parse(entries[half...], in: file, from: &end)
        }
        parser = end
        return halves[0].0 + second
    }

    /// `entries` parsed in order from `state`, which ends as the state after the last.
    private static func parse(
        _ entries: ArraySlice<IndexEntry>, in file: MappedFile, from state: inout FrameParser
    ) -> [FrameStructure?] {
        let bytes = file.bytes
        var out: [FrameStructure?] = []
        out.reserveCapacity(entries.count)
        for i in entries.indices {
            if i + prefetchFrames < entries.endIndex { file.prefetch(at: entries[i + prefetchFrames].position) }
            let entry = entries[i]
            let end = entry.position + Int64(entry.size)
            guard entry.position >= 0, end <= Int64(bytes.count) else {
                out.append(nil)
                continue
            }
            out.append(state.parse(UnsafeRawBufferPointer(rebasing: bytes[Int(entry.position)..<Int(end)])))
        }
        return out
    }
}
