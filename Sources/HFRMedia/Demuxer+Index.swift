import CFFmpeg

extension Demuxer {
    /// Entries in stream `index`'s index as the demuxer holds them now: every sample for MP4/MOV
    /// (built from the sample tables when the file is opened), only cue points for Matroska.
    public func indexEntryCount(ofStream index: Int) -> Int {
        Int(avformat_index_get_entries_count(context.pointee.streams[index]!))
    }

    /// Calls `body` with each entry of stream `index`'s index, in index (decode) order. Nothing is
    /// read from the file and nothing is kept: constant memory whatever the number of samples.
    public func forEachIndexEntry(ofStream index: Int, _ body: (IndexEntry) throws -> Void) rethrows {
        let stream = context.pointee.streams[index]!
        for i in 0..<avformat_index_get_entries_count(stream) {
            // The pointer is valid only until the index changes (a read or a seek); copied at once.
            guard let e = avformat_index_get_entry(stream, i)?.pointee else { continue }
            try body(
                IndexEntry(
                    timestamp: e.timestamp, position: e.pos, size: Int(e.size),
                    isKeyframe: e.flags & AVINDEX_KEYFRAME != 0, isDiscarded: e.flags & AVINDEX_DISCARD_FRAME != 0))
        }
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
