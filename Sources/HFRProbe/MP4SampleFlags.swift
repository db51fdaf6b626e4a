import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Which samples of each MP4/MOV track the file marks disposable ("no other sample depends on it").
///
/// FFmpeg 5.1's MOV demuxer reads `sdtp` but does not pass it on in packet flags, so hfr reads the
/// marks itself: `sdtp` in `moov` for regular files, and the sample flags of `trun`/`tfhd`/`trex`
/// for fragmented ones. Only the small index boxes are read; media data is skipped. It also notes
/// what decides whether FFmpeg's index alone gives packet timestamps (`IndexScan`): composition
/// offsets (`ctts`) and fragments.
struct MP4SampleFlags {
    /// Per track, in `trak` order (FFmpeg's stream order): one entry per sample, in sample order.
    private(set) var disposableByTrack: [[Bool]] = []
    /// Whether any track carries marks at all (an `sdtp` box or fragment sample flags).
    private(set) var hasMarks = false
    /// Tracks (in `trak` order) with a `ctts` box: presentation times differ from decode times.
    private(set) var tracksWithCompositionOffsets: Set<Int> = []
    /// Whether the file is fragmented (`mvex`/`moof`): samples are indexed as fragments are read.
    private(set) var isFragmented = false

    private var trackIDs: [UInt32] = []
    private var defaultFlagsByTrackID: [UInt32: UInt32] = [:]
    /// The `traf` being read: its track and default sample flags (from `trex`, overridden by `tfhd`).
    private var fragmentTrack: Int?
    private var fragmentDefaultFlags: UInt32 = 0

    /// Boxes whose children are walked; of the others only the few below are read.
    private static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "mvex", "moof", "traf"]
    private static let leavesRead: Set<String> = ["tkhd", "sdtp", "trex", "tfhd", "trun"]

    /// Reads the marks of the file at `path`; nil when it cannot be read as ISO BMFF.
    ///
    /// Memory: box headers are read one at a time and only the boxes above are loaded, so the large
    /// sample tables (stsz, stco, stts) and the media data are never held.
    init?(path: String) {
        let fd = FileSystem.open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        // A Samsung slow-motion file's SEF trailer follows the last box.
        let end = SamsungSlowMotion.trailerStart(path: path) ?? Int64(info.st_size)
        guard walk(fd, from: 0, to: end) else { return nil }
    }

    /// Whether sample `index` of track `track` is marked disposable.
    func isDisposable(track: Int, sample: Int) -> Bool {
        track < disposableByTrack.count && sample < disposableByTrack[track].count
            && disposableByTrack[track][sample]
    }

    /// Visits the boxes in [start, end); false when a box header is malformed.
    private mutating func walk(_ fd: Int32, from start: Int64, to end: Int64) -> Bool {
        var offset = start
        while offset + 8 <= end {
            guard let header = MP4Box.read(fd, at: offset, count: 16),
                let (size, type, headerSize) = MP4Box.header(header, remaining: end - offset)
            else { return false }
            let bodyStart = offset + headerSize
            let bodyEnd = offset + size
            if type == "ctts", !trackIDs.isEmpty {
                tracksWithCompositionOffsets.insert(trackIDs.count - 1)
            }
            if MP4SampleFlags.containers.contains(type) {
                if type == "mvex" || type == "moof" { isFragmented = true }
                if type == "trak" {
                    trackIDs.append(0)
                    disposableByTrack.append([])
                } else if type == "traf" {
                    fragmentTrack = nil
                    fragmentDefaultFlags = 0
                }
                guard walk(fd, from: bodyStart, to: bodyEnd) else { return false }
            } else if MP4SampleFlags.leavesRead.contains(type), size - headerSize < 1 << 28,
                let body = MP4Box.read(fd, at: bodyStart, count: Int(size - headerSize))
            {
                read(type, body[...])
            }
            offset = bodyEnd
        }
        return true
    }

    private mutating func read(_ type: String, _ content: ArraySlice<UInt8>) {
        switch type {
        case "tkhd" where content.count >= 24 && !trackIDs.isEmpty:
            trackIDs[trackIDs.count - 1] = MP4Box.u32(content, content.first == 1 ? 20 : 12)
        case "sdtp" where content.count >= 4 && !disposableByTrack.isEmpty:
            hasMarks = true
            // One byte per sample: bits 3-2 are sample_is_depended_on; 2 = "no other sample depends on this".
            disposableByTrack[disposableByTrack.count - 1] = content.dropFirst(4).map { ($0 >> 2) & 3 == 2 }
        case "trex" where content.count >= 24:
            defaultFlagsByTrackID[MP4Box.u32(content, 4)] = MP4Box.u32(content, 20)
        case "tfhd" where content.count >= 8:
            let flags = MP4Box.u32(content, 0) & 0xFF_FFFF
            let id = MP4Box.u32(content, 4)
            fragmentTrack = trackIDs.firstIndex(of: id)
            fragmentDefaultFlags = defaultFlagsByTrackID[id] ?? 0
            // Optional fields in order: base offset (8), description index, duration, size, flags (4 each).
            var at = 8
            if flags & 0x1 != 0 { at += 8 }
            for bit: UInt32 in [0x2, 0x8, 0x10] where flags & bit != 0 { at += 4 }
            if flags & 0x20 != 0, content.count >= at + 4 { fragmentDefaultFlags = MP4Box.u32(content, at) }
        case "trun" where content.count >= 8:
            guard let track = fragmentTrack else { return }
            hasMarks = true
            readRun(content, track: track, defaultFlags: fragmentDefaultFlags)
        default: break
        }
    }

    private mutating func readRun(_ content: ArraySlice<UInt8>, track: Int, defaultFlags: UInt32) {
        let flags = MP4Box.u32(content, 0) & 0xFFFFFF
        let count = Int(MP4Box.u32(content, 4))
        var at = 8
        if flags & 0x1 != 0 { at += 4 }  // data_offset
        var firstFlags: UInt32? = nil
        if flags & 0x4 != 0, content.count >= at + 4 {
            firstFlags = MP4Box.u32(content, at)
            at += 4
        }
        let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
        for i in 0..<count {
            var sampleFlags = i == 0 ? (firstFlags ?? defaultFlags) : defaultFlags
            if flags & 0x400 != 0 {
                let flagsAt = at + (flags & 0x100 != 0 ? 4 : 0) + (flags & 0x200 != 0 ? 4 : 0)
                guard content.count >= flagsAt + 4 else { return }
                sampleFlags = MP4Box.u32(content, flagsAt)
            }
            // sample_flags bits 23-22: sample_is_depended_on (ISO/IEC 14496-12 8.8.3.1).
            disposableByTrack[track].append((sampleFlags >> 22) & 3 == 2)
            at += perSample
        }
    }
}
