#if canImport(Glibc)
    import Glibc
#endif

/// Writes a rotation into a Matroska file FFmpeg 5.1 wrote, whose muxer has no way to: a `Projection`
/// element (rectangular, `ProjectionPoseRoll`) in the video track's `Video` element, which FFmpeg's
/// demuxer (5.1 included) turns into the display matrix, mkvinfo shows, and players built on FFmpeg
/// honour. The roll counts counter-clockwise (as FFmpeg's display-matrix angle): −90 for `--rotate 90`.
///
/// FFmpeg reserves an EBML `Void` after the `SeekHead`; the bytes from its end to the end of the
/// `Video` element move back by the new element's size, which takes that much of the `Void`.
/// Nothing else in the file moves: the `SeekHead` positions of what moved, the sizes of `Video`,
/// `TrackEntry` and `Tracks`, and the `CRC-32` elements of `SeekHead` and `Tracks` are rewritten.
public enum MatroskaRotationPatch {
    static let segmentID: UInt32 = 0x1853_8067
    static let seekHeadID: UInt32 = 0x114D_9B74
    static let tracksID: UInt32 = 0x1654_AE6B
    static let voidID: UInt32 = 0xEC
    static let crcID: UInt32 = 0xBF

    /// Gives the first video track of the Matroska file at `path` the turn `clockwise` (90, 180, 270).
    public static func setRotation(clockwise: Int, inFileAt path: String) throws(AVFailure) {
        let fd = FileSystem.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw AVFailure(errno: .current, operation: "open \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw AVFailure(errno: .current, operation: "stat \(path)") }
        let size = min(Int(info.st_size), 1 << 20)
        var head = [UInt8](repeating: 0, count: size)
        let read = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) }
        guard read == size else { throw AVFailure(errno: .current, operation: "read \(path)") }
        guard let patched = patched(head, clockwise: clockwise) else {
            throw AVFailure.invalidData("\(path): no room in the Matroska header for the rotation")
                .during(.writingOutput)
        }
        let written = patched.withUnsafeBytes { pwrite(fd, $0.baseAddress, size, 0) }
        guard written == size else { throw AVFailure(errno: .current, operation: "write \(path)") }
    }

    /// `head` (the file's first bytes, through its `Tracks`) with the `Projection` added; same length.
    /// Nil when the layout is not FFmpeg's (no `Void` before `Tracks` large enough, a `Projection`
    /// already there, sizes that would outgrow their fields).
    public static func patched(_ head: [UInt8], clockwise: Int) -> [UInt8]? {
        guard let header = EBMLElement(head, at: 0), let segment = EBMLElement(head, at: header.end),
            segment.id == segmentID
        else { return nil }
        let level1 = EBMLElement.children(head, from: segment.dataStart, to: min(segment.end, head.count))
        guard let tracks = level1.first(where: { $0.id == tracksID }), tracks.end <= head.count,
            let void = level1.last(where: { $0.id == voidID && $0.end <= tracks.start }),
            let seekHead = level1.first(where: { $0.id == seekHeadID && $0.end <= void.start }),
            let (entry, video) = videoElements(head, tracks: tracks)
        else { return nil }
        let projection = element(clockwise: clockwise)
        let shift = projection.count
        guard void.dataSize >= shift else { return nil }
        var out = head
        // Tracks, TrackEntry, Video grow (their sizes, in place, before moving).
        for grown in [tracks, entry, video] {
            guard grown.setSize(grown.dataSize + shift, in: &out) else { return nil }
        }
        let moved = Array(out[void.end..<video.end])
        var void2 = void
        void2.dataSize -= shift
        guard void2.setSize(void2.dataSize, in: &out) else { return nil }
        let movedStart = void.end - shift
        out.replaceSubrange(movedStart..<video.end, with: moved + projection)
        moveSeekPositions(&out, seekHead: seekHead, segment: segment, from: void.end, to: video.end, by: shift)
        let newTracks = EBMLElement(out, at: tracks.start - shift)!
        updateCRC(&out, of: newTracks)
        updateCRC(&out, of: seekHead)
        return out
    }

    /// The first video `TrackEntry` and its `Video` element (which must not hold a `Projection`).
    static func videoElements(_ bytes: [UInt8], tracks: EBMLElement) -> (EBMLElement, EBMLElement)? {
        for entry in EBMLElement.children(bytes, from: tracks.dataStart, to: tracks.end) where entry.id == 0xAE {
            let fields = EBMLElement.children(bytes, from: entry.dataStart, to: entry.end)
            guard let type = fields.first(where: { $0.id == 0x83 }), type.unsigned(bytes) == 1,
                let video = fields.first(where: { $0.id == 0xE0 })
            else { continue }
            let inside = EBMLElement.children(bytes, from: video.dataStart, to: video.end)
            return inside.contains { $0.id == 0x7670 } ? nil : (entry, video)
        }
        return nil
    }

    /// `Projection { ProjectionType 0 (rectangular), ProjectionPoseRoll float32 }`.
    static func element(clockwise: Int) -> [UInt8] {
        var roll = Double(-clockwise)
        if roll <= -180 { roll += 360 }
        let bits = Float(roll).bitPattern
        let rollBytes = (0..<4).map { UInt8(truncatingIfNeeded: bits >> (24 - 8 * $0)) }
        let body: [UInt8] = [0x76, 0x71, 0x81, 0x00, 0x76, 0x75, 0x84] + rollBytes
        return [0x76, 0x70, 0x80 | UInt8(body.count)] + body
    }

    /// Moves back by `shift` the `SeekHead` positions (relative to the segment's data) of elements
    /// that started in `from..<to`.
    static func moveSeekPositions(
        _ bytes: inout [UInt8], seekHead: EBMLElement, segment: EBMLElement, from: Int, to: Int, by shift: Int
    ) {
        for seek in EBMLElement.children(bytes, from: seekHead.dataStart, to: seekHead.end) where seek.id == 0x4DBB {
            let fields = EBMLElement.children(bytes, from: seek.dataStart, to: seek.end)
            guard let position = fields.first(where: { $0.id == 0x53AC }) else { continue }
            let value = position.unsigned(bytes)
            let absolute = segment.dataStart + Int(value)
            guard absolute >= from, absolute < to else { continue }
            var v = value - UInt64(shift)
            for i in stride(from: position.end - 1, through: position.dataStart, by: -1) {
                bytes[i] = UInt8(truncatingIfNeeded: v)
                v >>= 8
            }
        }
    }

    /// Recomputes a level-1 element's `CRC-32` child (its first), if it has one.
    static func updateCRC(_ bytes: inout [UInt8], of element: EBMLElement) {
        guard let crc = EBMLElement(bytes, at: element.dataStart), crc.id == crcID, crc.dataSize == 4 else { return }
        let value = crc32(bytes[crc.end..<element.end])
        for i in 0..<4 { bytes[crc.dataStart + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }
}

/// CRC-32 as Matroska's `CRC-32` element holds it (IEEE 802.3, reflected, stored little-endian).
func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc = UInt32.max
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ UInt32.max
}

/// One EBML element's layout: ID, where its size field and data lie.
struct EBMLElement {
    var id: UInt32
    var start: Int
    var sizeStart: Int
    var sizeLength: Int
    var dataSize: Int
    var dataStart: Int { sizeStart + sizeLength }
    var end: Int { dataStart + dataSize }

    /// The element at `offset`; nil when its header does not fit or is not EBML.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard let (id, idLength) = EBMLElement.vint(bytes, at: offset, keepingMarker: true), idLength <= 4,
            let (size, sizeLength) = EBMLElement.vint(bytes, at: offset + idLength, keepingMarker: false)
        else { return nil }
        self.id = UInt32(id)
        start = offset
        sizeStart = offset + idLength
        self.sizeLength = sizeLength
        // An unknown size (all ones) runs to the end of what is read.
        let unknown = size == (UInt64(1) << (7 * sizeLength)) - 1
        dataSize = unknown ? bytes.count - offset - idLength - sizeLength : Int(size)
    }

    static func vint(_ bytes: [UInt8], at offset: Int, keepingMarker: Bool) -> (UInt64, Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard offset + length <= bytes.count else { return nil }
        var value = UInt64(keepingMarker ? bytes[offset] : bytes[offset] & (0xFF >> length))
        for i in 1..<length { value = value << 8 | UInt64(bytes[offset + i]) }
        return (value, length)
    }

    static func children(_ bytes: [UInt8], from: Int, to: Int) -> [EBMLElement] {
        var out: [EBMLElement] = []
        var offset = from
        while offset < to, let e = EBMLElement(bytes, at: offset), e.end <= to {
            out.append(e)
            offset = e.end
        }
        return out
    }

    func unsigned(_ bytes: [UInt8]) -> UInt64 {
        bytes[dataStart..<end].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Writes `size` into this element's size field, in the same length; false when it does not fit.
    func setSize(_ size: Int, in bytes: inout [UInt8]) -> Bool {
        guard size >= 0, UInt64(size) < (UInt64(1) << (7 * sizeLength)) - 1 else { return false }
        var v = UInt64(size) | UInt64(1) << (7 * sizeLength)
        for i in stride(from: sizeLength - 1, through: 0, by: -1) {
            bytes[sizeStart + i] = UInt8(truncatingIfNeeded: v)
            v >>= 8
        }
        return true
    }
}
