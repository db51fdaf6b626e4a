import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// Decode times for the samples of a fragmented MP4 that share one with the sample after them.
///
/// FFmpeg's muxer writes such fragments (`-movflags frag_every_frame` with AAC): a sample given a
/// duration of 0 and the next fragment's start, which the next sample then has too; FFmpeg's
/// demuxer marks the second discardable, and decode times that do not increase cannot be copied.
/// The samples before and after the collision are right, and the colliding ones belong in the gap
/// before it: a run of k samples at time T after a sample at P < T takes P + (T − P)·j/k for
/// j = 1…k−1, the last keeping T (its presentation time moves with it). Times that run backwards
/// are left as they are (and refused later as such). Read from the fragments' boxes when the input
/// is opened, once per file in a process: only box headers and the small `trex`, `tfhd`, `tfdt`
/// and `trun` boxes, no media data; only the moved samples are remembered.
final class FragmentTimes {
    /// Stream index → (sample index → ticks its decode time moves by).
    private let moves: [Int: [Int: Int64]]
    /// Samples of each stream read so far.
    private var read: [Int: Int] = [:]

    /// The repair for `context`, an opened `path`; nil when no sample needs one (or the input is no
    /// fragmented MP4).
    static func of(_ context: UnsafeMutablePointer<AVFormatContext>, path: String) -> FragmentTimes? {
        guard Container.isISO(demuxer: String(cString: context.pointee.iformat.pointee.name)) else {
            return nil
        }
        let byTrack = moves(path: path)
        guard !byTrack.isEmpty else { return nil }
        var moves: [Int: [Int: Int64]] = [:]
        for i in 0..<Int(context.pointee.nb_streams) {
            if let m = byTrack[UInt32(truncatingIfNeeded: context.pointee.streams[i]!.pointee.id)] { moves[i] = m }
        }
        return moves.isEmpty ? nil : FragmentTimes(moves: moves)
    }

    private init(moves: [Int: [Int: Int64]]) { self.moves = moves }

    /// Moves `packet` (the next sample of its stream, read in file order) to its repaired time and
    /// lifts the discard mark FFmpeg put on it for the collision.
    func repair(_ packet: Packet) {
        guard let stream = moves[packet.streamIndex] else { return }
        let sample = read[packet.streamIndex, default: 0]
        read[packet.streamIndex] = sample + 1
        guard let delta = stream[sample] else { return }
        packet.dts = packet.dts.map { $0 + delta }
        packet.pts = packet.pts.map { $0 + delta }
        packet.isDiscarded = false
    }

    // MARK: - Reading the fragments

    private static let cache = Locked<[FileVersion: [UInt32: [Int: Int64]]]>([:])

    /// Track ID → (sample index → ticks) for the file at `path`.
    static func moves(path: String) -> [UInt32: [Int: Int64]] {
        let key = FileVersion(path: path)
        if let key, let known = cache.withLock({ $0[key] }) { return known }
        var scan = Scan()
        let fd = FileSystem.open(path, O_RDONLY)
        if fd >= 0 {
            var info = stat()
            if fstat(fd, &info) == 0 { scan.walk(fd, from: 0, to: Int64(info.st_size)) }
            close(fd)
            scan.finish()
        }
        if let key { cache.withLock { $0[key] = scan.moves } }
        return scan.moves
    }

    /// One track's samples as they go by: where the run of samples sharing a time started.
    private struct Track {
        var defaultDuration: UInt32 = 0
        var samples = 0
        /// Where the last fragment ended (its next sample's time when a fragment has no `tfdt`).
        var end: Int64 = 0
        /// The last time before the current run, the run's time and its first sample.
        var before: Int64?
        var runTime: Int64?
        var runStart = 0

        /// The next sample, at `time`; moves for a run it ends go to `moves`.
        mutating func add(_ time: Int64, moves: inout [Int: Int64]) {
            defer { samples += 1 }
            if time == runTime { return }
            close(moves: &moves)
            before = runTime
            runTime = time
            runStart = samples
        }

        /// Spreads the run just ended over the gap before it.
        mutating func close(moves: inout [Int: Int64]) {
            let k = samples - runStart
            guard k > 1, let before, let t = runTime, before < t else { return }
            // Times are the file's, damaged ones too: the arithmetic must not overflow.
            let (span, over) = t.subtractingReportingOverflow(before)
            guard !over, span.multipliedReportingOverflow(by: Int64(k)).overflow == false else { return }
            for j in 1..<k {
                moves[runStart + j - 1] = span * Int64(j) / Int64(k) - span
            }
        }
    }

    private struct Scan {
        var tracks: [UInt32: Track] = [:]
        var moves: [UInt32: [Int: Int64]] = [:]
        /// The `traf` being read: its track, default duration and decode time.
        var track: UInt32?
        var duration: UInt32 = 0
        var time: Int64?

        private static let containers: Set<String> = ["moov", "mvex", "moof", "traf"]
        private static let leavesRead: Set<String> = ["trex", "tfhd", "tfdt", "trun"]

        mutating func walk(_ fd: Int32, from start: Int64, to stop: Int64) {
            var offset = start
            while offset + 8 <= stop {
                guard let bytes = MP4Box.read(fd, at: offset, count: 16),
                    let (size, type, headerSize) = MP4Box.header(bytes, remaining: stop - offset)
                else { return }
                if Scan.containers.contains(type) {
                    if type == "traf" { (track, time) = (nil, nil) }
                    walk(fd, from: offset + headerSize, to: offset + size)
                } else if Scan.leavesRead.contains(type), size - headerSize < 1 << 24,
                    let body = MP4Box.read(fd, at: offset + headerSize, count: Int(size - headerSize))
                {
                    read(type, body[...])
                }
                offset += size
            }
        }

        /// Closes every track's last run.
        mutating func finish() {
            for id in tracks.keys { tracks[id]!.close(moves: &moves[id, default: [:]]) }
            moves = moves.filter { !$0.value.isEmpty }
        }

        private mutating func read(_ type: String, _ body: ArraySlice<UInt8>) {
            switch type {
            case "trex" where body.count >= 16:
                tracks[MP4Box.u32(body, 4), default: Track()].defaultDuration = MP4Box.u32(body, 12)
            case "tfhd" where body.count >= 8:
                let flags = MP4Box.u32(body, 0) & 0xFF_FFFF
                let id = MP4Box.u32(body, 4)
                track = id
                duration = tracks[id]?.defaultDuration ?? 0
                // Optional fields in order: base data offset (8), sample description index (4), duration.
                let at = 8 + (flags & 0x1 != 0 ? 8 : 0) + (flags & 0x2 != 0 ? 4 : 0)
                if flags & 0x8 != 0, body.count >= at + 4 { duration = MP4Box.u32(body, at) }
            case "tfdt" where body.count >= 8:
                time =
                    body.first == 1 && body.count >= 12
                    ? Int64(truncatingIfNeeded: MP4Box.u64(body, 4)) : Int64(MP4Box.u32(body, 4))
            case "trun" where body.count >= 8:
                guard let id = track else { return }
                readRun(body, track: id)
            default: break
            }
        }

        /// Each sample of a `trun` (ISO/IEC 14496-12 8.8.8), timed from the fragment's decode time.
        private mutating func readRun(_ body: ArraySlice<UInt8>, track id: UInt32) {
            let flags = MP4Box.u32(body, 0) & 0xFF_FFFF
            let count = Int(MP4Box.u32(body, 4))
            var at = 8 + (flags & 0x1 != 0 ? 4 : 0) + (flags & 0x4 != 0 ? 4 : 0)
            let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
            var state = tracks[id, default: Track()]
            var t = time ?? state.end
            for _ in 0..<count {
                guard perSample == 0 || body.count >= at + perSample else { break }
                state.add(t, moves: &moves[id, default: [:]])
                t &+= Int64(flags & 0x100 != 0 ? MP4Box.u32(body, at) : duration)
                at += perSample
            }
            state.end = t
            tracks[id] = state
            time = nil  // a second run in the fragment follows the first
        }
    }
}
