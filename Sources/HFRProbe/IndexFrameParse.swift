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
    /// How far ahead of the frame it parses the CPU is asked to load a frame's first bytes: a
    /// frame's bytes are otherwise waited for, each in another part of the file.
    static let prefetchFrames = 16

    init(file: MappedFile, parser: FrameParser) {
        self.file = file
        self.parser = parser
    }

    /// The structure of each of `entries` (the next frames in decode order); nil for an entry
    /// outside the file.
    mutating func structures(of entries: [IndexEntry]) -> [FrameStructure?] {
        var out = [FrameStructure?](repeating: nil, count: entries.count)
        let half = entries.count / 2
        let file = file
        let bytes = file.bytes
        guard half >= IndexFrameParse.parallelHalf else {
            var state = parser
            out.withUnsafeMutableBufferPointer { IndexFrameParse.parse(entries[...], file, into: $0, from: &state) }
            parser = state
            return out
        }
        let start = parser
        var guess = parser
        _ = IndexFrameParse.structure(of: entries[half - 1], bytes, from: &guess)
        let end = out.withUnsafeMutableBufferPointer { buffer -> FrameParser in
            // Each half writes only its own part of `out`; `inParallel` returns when both are done.
            let all = buffer
            let ends = inParallel(2) { i -> FrameParser in
                var state = i == 0 ? start : guess
                let range = i == 0 ? 0..<half : half..<entries.count
                IndexFrameParse.parse(
                    entries[range], file, into: UnsafeMutableBufferPointer(rebasing: all[range]), from: &state)
                return state
            }
            guard ends[0] != guess else { return ends[1] }
            var state = ends[0]
            IndexFrameParse.parse(
                entries[half...], file, into: UnsafeMutableBufferPointer(rebasing: all[half...]), from: &state)
            return state
        }
        parser = end
        return out
    }

    /// `entries` parsed in order from `state` into `out` (as many), `state` ending as the state
    /// after the last.
    private static func parse(
        _ entries: ArraySlice<IndexEntry>, _ file: MappedFile,
        into out: UnsafeMutableBufferPointer<FrameStructure?>, from state: inout FrameParser
    ) {
        for (slot, i) in entries.indices.enumerated() {
            let ahead = i + prefetchFrames
            if ahead < entries.endIndex { file.prefetch(at: entries[ahead].position) }
            out[slot] = structure(of: entries[i], file.bytes, from: &state)
        }
    }

    /// The frame `entry` lies at, parsed from `state` (which moves on past it); nil outside the file.
    private static func structure(
        of entry: IndexEntry, _ bytes: UnsafeRawBufferPointer, from state: inout FrameParser
    ) -> FrameStructure? {
        let end = entry.position + Int64(entry.size)
        guard entry.position >= 0, end <= Int64(bytes.count) else { return nil }
        return state.parse(UnsafeRawBufferPointer(rebasing: bytes[Int(entry.position)..<Int(end)]))
    }
}
