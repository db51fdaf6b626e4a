import HFRMedia

/// What a container's index promises before any packet is read, checked by the container's own
/// rules: every entry must lie inside the file, and where the index and the header count the same
/// units, reading must give every entry.
///
/// The header's frame count alone is no measure of packets: MOV counts PCM audio in samples (one
/// packet holds a chunk of them), AVI counts the empty frames of packed MPEG-4 that its index leaves
/// out. An index entry, though, is a packet, and its byte range is the data the file must hold.
public struct IndexPromise: Sendable {
    /// One video or audio stream's promise.
    struct Track: Sendable {
        let stream: Int
        /// Entries in the index when the file was opened (the sample table of MP4/MOV, AVI's `idx1`).
        let entries: Int
        /// Frames the header declares (`nb_frames`).
        let declared: Int64
        /// The first byte after the furthest entry's data.
        let end: Int64
    }

    let tracks: [Track]

    /// Reads the index of `demuxer`'s video and audio streams; call before any packet is read.
    public init(_ demuxer: borrowing Demuxer) {
        var tracks: [Track] = []
        for info in demuxer.streams where info.kind == .video || info.kind == .audio {
            var end: Int64 = 0
            demuxer.forEachIndexEntry(ofStream: info.index) { entry in
                if entry.position >= 0 { end = max(end, entry.position + Int64(entry.size)) }
            }
            tracks.append(
                Track(
                    stream: info.index, entries: demuxer.indexEntryCount(ofStream: info.index),
                    declared: info.declaredFrameCount, end: end))
        }
        self.tracks = tracks
    }

    /// Refuses an index listing data past the end of a `fileSize`-byte file: it was cut short.
    public func checkWithin(fileSize: Int64) throws(ProbeFailure) {
        if let track = tracks.first(where: { $0.end > fileSize }) {
            throw .pastEnd(stream: track.stream, byte: track.end, fileSize: fileSize)
        }
    }

    /// Refuses fewer packets of `stream` than promised, where the header's count and the index's
    /// agree (then both count packets). FFmpeg's MOV demuxer leaves out a subtitle track's final
    /// empty sample, so only video and audio are checked.
    public func checkRead(stream: Int, packets: Int) throws(ProbeFailure) {
        guard let track = tracks.first(where: { $0.stream == stream }), track.declared > 0,
            Int64(track.entries) == track.declared, Int64(packets) < track.declared
        else { return }
        throw .truncated(stream: stream, framesRead: packets, framesDeclared: track.declared)
    }
}
