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

    /// Gives the first video track of the Matroska file at `path` the turn `clockwise` (90, 180, 270).
    public static func setRotation(clockwise: Int, inFileAt path: String) throws(AVFailure) {
        try MatroskaHead.rewrite(fileAt: path) { (head) throws(AVFailure) in
            guard let patched = patched(head, clockwise: clockwise) else {
                throw AVFailure.invalidData("\(path): no room in the Matroska header for the rotation")
                    .during(.writingOutput)
            }
            return patched
        }
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
        newTracks.updateCRC(in: &out)
        seekHead.updateCRC(in: &out)
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
            _ = position.setUnsigned(value - UInt64(shift), in: &bytes)
        }
    }
}
