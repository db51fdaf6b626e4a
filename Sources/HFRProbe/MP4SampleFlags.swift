#if canImport(Glibc)
    import Glibc
#endif

/// Which samples of each MP4/MOV track the file marks disposable ("no other sample depends on it").
///
/// FFmpeg 5.1's MOV demuxer reads `sdtp` but does not pass it on in packet flags, so hfr reads the
/// marks itself: `sdtp` in `moov` for regular files, and the sample flags of `trun`/`tfhd`/`trex`
/// for fragmented ones. Only the small index boxes are read; media data is skipped.
struct MP4SampleFlags {
    /// Per track, in `trak` order (FFmpeg's stream order): one entry per sample, in sample order.
    private(set) var disposableByTrack: [[Bool]] = []
    /// Whether any track carries marks at all (an `sdtp` box or fragment sample flags).
    private(set) var hasMarks = false

    private var trackIDs: [UInt32] = []
    private var defaultFlagsByTrackID: [UInt32: UInt32] = [:]

    /// Reads the marks of the file at `path`; nil when it cannot be read as ISO BMFF.
    init?(path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var offset: Int64 = 0
        let end = Int64(info.st_size)
        while offset + 8 <= end {
            guard let header = MP4SampleFlags.readBytes(fd, at: offset, count: 16),
                let (size, type, headerSize) = MP4SampleFlags.boxHeader(header, remaining: end - offset)
            else { return nil }
            if type == "moov" || type == "moof" {
                guard size < 1 << 30,
                    let body = MP4SampleFlags.readBytes(fd, at: offset + headerSize, count: Int(size - headerSize))
                else { return nil }
                if type == "moov" { readMovie(body[...]) } else { readFragment(body[...]) }
            }
            offset += size
        }
    }

    /// Whether sample `index` of track `track` is marked disposable.
    func isDisposable(track: Int, sample: Int) -> Bool {
        track < disposableByTrack.count && sample < disposableByTrack[track].count
            && disposableByTrack[track][sample]
    }

    // MARK: - Boxes

    private mutating func readMovie(_ body: ArraySlice<UInt8>) {
        for (type, content) in MP4SampleFlags.children(body) {
            switch type {
            case "trak":
                trackIDs.append(0)
                disposableByTrack.append([])
                readTrack(content)
            case "mvex":
                for (t, trex) in MP4SampleFlags.children(content) where t == "trex" && trex.count >= 24 {
                    defaultFlagsByTrackID[MP4SampleFlags.u32(trex, 4)] = MP4SampleFlags.u32(trex, 20)
                }
            default: break
            }
        }
    }

    private mutating func readTrack(_ body: ArraySlice<UInt8>) {
        let t = trackIDs.count - 1
        for (type, content) in MP4SampleFlags.children(body) {
            switch type {
            case "tkhd" where content.count >= 24:
                trackIDs[t] = MP4SampleFlags.u32(content, content.first == 1 ? 20 : 12)
            case "mdia", "minf", "stbl":
                readTrack(content)
            case "sdtp" where content.count >= 4:
                hasMarks = true
                // One byte per sample: bits 3-2 are sample_is_depended_on; 2 = "no other sample depends on this".
                disposableByTrack[t] = content.dropFirst(4).map { ($0 >> 2) & 3 == 2 }
            default: break
            }
        }
    }

    private mutating func readFragment(_ body: ArraySlice<UInt8>) {
        for (type, traf) in MP4SampleFlags.children(body) where type == "traf" {
            var trackIndex: Int? = nil
            var defaultFlags: UInt32 = 0
            for (t, content) in MP4SampleFlags.children(traf) {
                if t == "tfhd", content.count >= 8 {
                    let flags = MP4SampleFlags.u32(content, 0) & 0xFFFFFF
                    let id = MP4SampleFlags.u32(content, 4)
                    trackIndex = trackIDs.firstIndex(of: id)
                    defaultFlags = defaultFlagsByTrackID[id] ?? 0
                    // Optional fields in order: base offset (8), description index, duration, size, flags (4 each).
                    var at = 8
                    if flags & 0x1 != 0 { at += 8 }
                    for bit: UInt32 in [0x2, 0x8, 0x10] where flags & bit != 0 { at += 4 }
                    if flags & 0x20 != 0, content.count >= at + 4 { defaultFlags = MP4SampleFlags.u32(content, at) }
                } else if t == "trun", let track = trackIndex, content.count >= 8 {
                    hasMarks = true
                    readRun(content, track: track, defaultFlags: defaultFlags)
                }
            }
        }
    }

    private mutating func readRun(_ content: ArraySlice<UInt8>, track: Int, defaultFlags: UInt32) {
        let flags = MP4SampleFlags.u32(content, 0) & 0xFFFFFF
        let count = Int(MP4SampleFlags.u32(content, 4))
        var at = 8
        if flags & 0x1 != 0 { at += 4 }  // data_offset
        var firstFlags: UInt32? = nil
        if flags & 0x4 != 0, content.count >= at + 4 {
            firstFlags = MP4SampleFlags.u32(content, at)
            at += 4
        }
        let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
        for i in 0..<count {
            var sampleFlags = i == 0 ? (firstFlags ?? defaultFlags) : defaultFlags
            if flags & 0x400 != 0 {
                let flagsAt = at + (flags & 0x100 != 0 ? 4 : 0) + (flags & 0x200 != 0 ? 4 : 0)
                guard content.count >= flagsAt + 4 else { return }
                sampleFlags = MP4SampleFlags.u32(content, flagsAt)
            }
            // sample_flags bits 23-22: sample_is_depended_on (ISO/IEC 14496-12 8.8.3.1).
            disposableByTrack[track].append((sampleFlags >> 22) & 3 == 2)
            at += perSample
        }
    }

    // MARK: - Bytes

    /// The child boxes of a container's body: (type, body) pairs.
    static func children(_ body: ArraySlice<UInt8>) -> [(String, ArraySlice<UInt8>)] {
        var result: [(String, ArraySlice<UInt8>)] = []
        var at = body.startIndex
        while at + 8 <= body.endIndex {
            guard
                let (size, type, headerSize) = boxHeader(
                    Array(body[at..<min(at + 16, body.endIndex)]), remaining: Int64(body.endIndex - at))
            else { break }
            result.append((type, body[(at + Int(headerSize))..<(at + Int(size))]))
            at += Int(size)
        }
        return result
    }

    /// (size including header, four-character type, header size) of the box starting at `bytes`.
    static func boxHeader(_ bytes: [UInt8], remaining: Int64) -> (Int64, String, Int64)? {
        guard bytes.count >= 8 else { return nil }
        var size = Int64(u32(bytes[...], 0))
        let type = String(decoding: bytes[4..<8], as: UTF8.self)
        var headerSize: Int64 = 8
        if size == 1 {
            guard bytes.count >= 16 else { return nil }
            size = Int64(u32(bytes[...], 8)) << 32 | Int64(u32(bytes[...], 12))
            headerSize = 16
        } else if size == 0 {
            size = remaining
        }
        guard size >= headerSize, size <= remaining else { return nil }
        return (size, type, headerSize)
    }

    static func u32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        let i = bytes.startIndex + offset
        return UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    static func readBytes(_ fd: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return done >= min(count, 8) ? Array(buffer[0..<done]) : nil
    }
}
