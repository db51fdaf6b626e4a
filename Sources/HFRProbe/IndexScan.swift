import HFRMedia

/// The main video stream's frames from the container's index instead of its packets. FFmpeg's MOV
/// demuxer builds the index from the sample tables when it opens the file, so every frame's time,
/// size, position and keyframe flag are known without reading any media data.
///
/// The index holds decode times. It stands in for the packets only where those are also the
/// presentation times and it lists every frame: a regular (not fragmented) MP4/MOV whose video track
/// has no composition offsets (`ctts`) and no reorder delay, with as many entries as the track
/// declares. The MOV demuxer then gives each packet exactly these timestamps: pts = dts = the entry's
/// time, and the next entry's time minus it as duration (the track's duration for the last one).
/// Bitstream facts (temporal layers, reference flags) still need the packets: see `Prober`.
public struct IndexScan: Sendable {
    /// The main video stream.
    public let video: StreamInfo
    /// What reading every packet would measure: frames, bytes, earliest time, rate, duration.
    public let stream: ProbeReport.Stream
    /// Frames per second of capture: from file metadata when present, else measured.
    public let captureFrameRate: Rational?
    public let captureFrameRateSource: ProbeReport.CaptureRateSource
    /// A jump of the frames' times no recording has (see `TimestampJump`); nil when none.
    public let jump: TimestampJump?

    /// Scans the index of `demuxer` (opened on `path`); calls `onFrame` with each video frame in
    /// decode order, as `Prober` would (without `structure`). Nil when the index cannot stand in for
    /// the packets (other containers, fragments, composition offsets, missing entries).
    public static func scan(
        _ demuxer: borrowing Demuxer, path: String, onFrame: ((ProbedFrame) -> Void)? = nil
    ) -> IndexScan? {
        guard let (video, marks) = standIn(demuxer, path: path) else { return nil }
        var tally = StreamTally.video(shownFrom: video.startTime)
        var jump: TimestampJump?
        // Stops at a jump (see `TimestampJump`): the frames after it are not handed on.
        struct Leap: Error {}
        do {
            try forEachFrame(demuxer, video: video, marks: marks) { frame, duration in
                tally.add(pts: frame.pts, duration: duration, size: frame.size)
                jump = TimestampJump(tally.jumps, in: video)
                if jump != nil { throw Leap() }
                onFrame?(frame)
            }
        } catch {
            // Only the closure above throws.
        }
        let measured = tally.measuredFrameRate(timeBase: video.timeBase, declared: Prober.declaredRate(video))
        let (capture, source) = Prober.captureRate(info: video, measured: measured, tags: demuxer.metadata, path: path)
        return IndexScan(
            video: video,
            stream: ProbeReport.Stream(
                info: video, packetCount: tally.packetCount, frameCount: tally.packetCount,
                byteCount: tally.byteCount, firstPts: tally.minStart, measuredFrameRate: measured,
                measuredDuration: tally.measuredDuration(timeBase: video.timeBase), leadingFrame: tally.leadingFrame),
            captureFrameRate: capture, captureFrameRateSource: source, jump: jump)
    }

    /// Frames `forEachFrame` hands to `structures` at once, and how much of the file they may span
    /// (what parsing them maps of it: the pages before a batch are let go as it starts).
    static let batchFrames = 8192
    static let batchBytes: Int64 = 32 << 20

    /// Each frame of `video` as its packet would give it (pts = dts = the entry's time; its duration:
    /// the next entry's time minus its own, the track's end for the last), in decode order, with
    /// its bitstream facts from `structures` (nil: none), which parses a batch of entries at once.
    /// (A plain loop over the index, not `forEachPacket`'s closures: a probe of a long file calls
    /// this per frame, and variables shared by nested closures cost a runtime access check each.)
    static func forEachFrame(
        _ demuxer: borrowing Demuxer, video: StreamInfo, marks: MP4SampleFlags,
        structures: (([IndexEntry]) -> [FrameStructure?])? = nil, _ body: (ProbedFrame, Int64) throws -> Void
    ) rethrows {
        let count = demuxer.indexEntryCount(ofStream: video.index)
        var frameIndex = 0
        var next = 0
        var batch: [IndexEntry] = []
        batch.reserveCapacity(batchFrames)
        while next < count {
            batch.removeAll(keepingCapacity: true)
            while next < count, batch.count < batchFrames {
                // (The index has an entry at every position below its count; one it lacks is passed
                // over, as `forEachIndexEntry` does.)
                guard let entry = demuxer.indexEntry(ofStream: video.index, at: next) else {
                    next += 1
                    continue
                }
                if let first = batch.first, entry.position - first.position > batchBytes { break }
                batch.append(entry)
                next += 1
            }
            if batch.isEmpty { break }
            // The time the last frame of the batch lasts until: the next entry's, or the track's end.
            let end = next < count ? demuxer.indexEntry(ofStream: video.index, at: next)?.timestamp : nil
            let parsed = structures?(batch)
            for (i, entry) in batch.enumerated() {
                let following = i + 1 < batch.count ? batch[i + 1].timestamp : end ?? video.duration ?? entry.timestamp
                try body(
                    ProbedFrame(
                        index: frameIndex, pts: entry.timestamp, dts: entry.timestamp, timeBase: video.timeBase,
                        size: entry.size, isKeyframe: entry.isKeyframe, structure: parsed?[i],
                        isContainerDisposable: marks.isDisposable(track: video.index, sample: frameIndex)),
                    following >= entry.timestamp ? following - entry.timestamp : 0)
                frameIndex += 1
            }
        }
    }

    /// Each index entry of `stream` from the `first` on, with the duration the MOV demuxer gives its
    /// packet: the next entry's time minus its own (0 if that goes back), the stream's end for the last.
    static func forEachPacket(
        _ demuxer: borrowing Demuxer, of stream: StreamInfo, from first: Int = 0,
        _ body: (IndexEntry, Int64) throws -> Void
    ) rethrows {
        // One entry behind: a packet's duration is the next entry's time minus its own.
        var pending: IndexEntry?
        func add(_ entry: IndexEntry, next: Int64) throws {
            try body(entry, next >= entry.timestamp ? next - entry.timestamp : 0)
        }
        try demuxer.forEachIndexEntry(ofStream: stream.index, from: first) { entry in
            if let previous = pending { try add(previous, next: entry.timestamp) }
            pending = entry
        }
        if let last = pending { try add(last, next: stream.duration ?? last.timestamp) }
    }

    /// Whether the index can stand in for the packets of `stream`, another stream of a file whose
    /// video it stands in for (`standIn`): audio, subtitles or data, whose packets are the index's
    /// entries as they are (no composition offsets; not MP1/2/3 audio, which the demuxer re-parses).
    /// `matchesFirstEntry` then confirms it with the stream's first packet.
    static func othersStandIn(_ demuxer: borrowing Demuxer, stream: StreamInfo, marks: MP4SampleFlags?) -> Bool {
        guard let marks, stream.kind != .video, !marks.tracksWithCompositionOffsets.contains(stream.index),
            demuxer.indexEntryCount(ofStream: stream.index) > 0
        else { return false }
        return !["mp1", "mp2", "mp3"].contains(stream.codecName)
    }

    /// Whether `packet`, the first of its stream, is what the stream's first index entry says:
    /// position, size, and its time as both decode and presentation time.
    static func matchesFirstEntry(_ packet: borrowing Packet, in demuxer: borrowing Demuxer) -> Bool {
        guard let first = demuxer.indexEntry(ofStream: packet.streamIndex, at: 0) else { return false }
        return packet.position == first.position && packet.size == first.size && packet.dts == first.timestamp
            && packet.pts == first.timestamp
    }

    /// Whether the index of `demuxer`'s main video stream stands in for its packets (see the type),
    /// decided without walking it.
    public static func standsIn(_ demuxer: borrowing Demuxer, path: String) -> Bool {
        standIn(demuxer, path: path) != nil
    }

    /// The main video stream and the file's sample marks, when its index stands in for its packets.
    static func standIn(_ demuxer: borrowing Demuxer, path: String) -> (StreamInfo, MP4SampleFlags)? {
        guard Container.isISO(demuxer: demuxer.formatName),
            let video = demuxer.streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }),
            demuxer.reorderDelay(ofStream: video.index) == 0, video.declaredFrameCount > 0,
            Int64(demuxer.indexEntryCount(ofStream: video.index)) == video.declaredFrameCount,
            let marks = MP4SampleFlags(path: path), !marks.isFragmented,
            !marks.tracksWithCompositionOffsets.contains(video.index)
        else { return nil }
        return (video, marks)
    }
}
