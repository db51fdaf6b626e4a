import CFFmpeg

extension Demuxer {
    /// Entries in stream `index`'s index as the demuxer holds them now: every sample for MP4/MOV
    /// (built from the sample tables when the file is opened), only cue points for Matroska.
    public func indexEntryCount(ofStream index: Int) -> Int {
        Int(avformat_index_get_entries_count(context.pointee.streams[index]!))
    }

    /// Calls `body` with each entry of stream `index`'s index, in index (decode) order. Nothing is
    /// read from the file and nothing is kept: constant memory whatever the number of samples.
    /// Entries before `first` are passed over.
    public func forEachIndexEntry(ofStream index: Int, from first: Int = 0, _ body: (IndexEntry) throws -> Void)
        rethrows
    {
        let stream = context.pointee.streams[index]!
        let start = Int32(clamping: max(first, 0))
        let count = avformat_index_get_entries_count(stream)
        guard start < count else { return }
        for i in start..<count {
            guard let entry = Demuxer.entry(stream, i) else { continue }
            try body(entry)
        }
    }

    /// Entry `position` of stream `index`'s index; nil past its end.
    public func indexEntry(ofStream index: Int, at position: Int) -> IndexEntry? {
        guard position >= 0, position < indexEntryCount(ofStream: index) else { return nil }
        return Demuxer.entry(context.pointee.streams[index]!, Int32(position))
    }

    private static func entry(_ stream: UnsafeMutablePointer<AVStream>, _ i: Int32) -> IndexEntry? {
        // The pointer is valid only until the index changes (a read or a seek); copied at once.
        guard let e = avformat_index_get_entry(stream, i)?.pointee else { return nil }
        return IndexEntry(
            timestamp: e.timestamp, position: e.pos, size: Int(e.size),
            isKeyframe: e.flags & AVINDEX_KEYFRAME != 0, isDiscarded: e.flags & AVINDEX_DISCARD_FRAME != 0)
    }

    /// Every entry of stream `index`'s index (see `forEachIndexEntry`; this one holds them all).
    public func indexEntries(ofStream index: Int) -> [IndexEntry] {
        var entries: [IndexEntry] = []
        entries.reserveCapacity(indexEntryCount(ofStream: index))
        forEachIndexEntry(ofStream: index) { entries.append($0) }
        return entries
    }

    /// Frames by which stream `index`'s decoder delays output to reorder them (`video_delay`, from
    /// the H.264 SPS): 0 when presentation order is decode order.
    public func reorderDelay(ofStream index: Int) -> Int {
        Int(context.pointee.streams[index]!.pointee.codecpar.pointee.video_delay)
    }
}
