#if canImport(Glibc)
    import Glibc
#endif

/// Typed QuickTime `mdta` values, which FFmpeg 5.1's MP4/MOV muxer cannot write.
///
/// FFmpeg (`movflags=use_metadata_tags`) writes every `mdta` value as UTF-8 (data type 1), inside
/// `moov/udta/meta` as an ISO full box. Android's MediaMuxer writes `com.android.capture.fps` as a
/// big-endian float32 (well-known type 23) in a QuickTime-style `meta` (no version and flags)
/// directly under `moov`; Android's MPEG4Extractor and Media3's Mp4Extractor read it only there and
/// only as a float. So the tag is written through the muxer as a 4-byte `placeholder` string, and
/// after the trailer `setFloat32` rewrites the movie box in place, same length: the `meta` box
/// moves out of `udta` (which becomes a `free` box when nothing else was in it), loses its version
/// and flags, and the placeholder `data` atoms get type 23 and the float. Nothing outside the movie
/// box moves, so the sample offsets stay right whether the movie box is first or last.
public enum MP4MetadataPatch {
    /// The value to give a tag through the muxer that `setFloat32` then turns into a float32.
    public static let placeholder = "0000"
    /// QuickTime's well-known data type for a big-endian IEEE 754 float32.
    public static let float32Type: UInt32 = 23

    /// Rewrites the movie box of the MP4/MOV file at `path` so that each key of `values` holds its
    /// float32. Every key must have been written with `placeholder` as its value.
    public static func setFloat32(_ values: [String: Float], inFileAt path: String) throws(AVFailure) {
        let fd = FileSystem.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw AVFailure(errno: .current, operation: "open \(path)") }
        defer { close(fd) }
        guard let (offset, size) = try movieBox(fd) else {
            throw AVFailure.invalidData("\(path): no moov box to put the float32 metadata in")
                .during(.writingOutput)
        }
        var movie = [UInt8](repeating: 0, count: size)
        let read = movie.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, off_t(offset)) }
        guard read == size else { throw AVFailure(errno: .current, operation: "read \(path)") }
        guard let patched = patchedMovie(movie, setting: values) else {
            throw AVFailure.invalidData("\(path): no mdta placeholder for \(values.keys.sorted())")
                .during(.writingOutput)
        }
        let written = patched.withUnsafeBytes { pwrite(fd, $0.baseAddress, size, off_t(offset)) }
        guard written == size else { throw AVFailure(errno: .current, operation: "write \(path)") }
    }

    /// The offset and size of the top-level `moov` box.
    private static func movieBox(_ fd: Int32) throws(AVFailure) -> (Int64, Int)? {
        var offset: Int64 = 0
        var header = [UInt8](repeating: 0, count: 16)
        while true {
            let read = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, off_t(offset)) }
            guard read >= 8 else { return nil }
            var size = Int64(BoxBytes.be32(header, 0))
            if size == 1, read == 16 {
                size = Int64(bitPattern: UInt64(BoxBytes.be32(header, 8)) << 32 | UInt64(BoxBytes.be32(header, 12)))
            }
            guard size >= 8 else { return nil }
            if BoxBytes.type(header, 4) == "moov" { return size <= Int64(Int32.max) ? (offset, Int(size)) : nil }
            offset += size
        }
    }

    /// `movie` (a whole `moov` box) with `values` set as float32 and its `mdta` meta box moved
    /// directly under `moov`; the same length. nil when a key has no placeholder value.
    public static func patchedMovie(_ movie: [UInt8], setting values: [String: Float]) -> [UInt8]? {
        guard movie.count >= 8, BoxBytes.type(movie, 4) == "moov" else { return nil }
        let children = BoxBytes.children(movie, from: 8, to: movie.count)
        if let meta = children.first(where: { $0.type == "meta" && isMetadataMeta(movie, $0) }) {
            var result = movie
            return setFloats(values, in: &result, meta: meta) ? result : nil
        }
        guard let udta = children.first(where: { $0.type == "udta" }),
            let meta = BoxBytes.children(movie, from: udta.start + 8, to: udta.end)
                .first(where: { $0.type == "meta" && isMetadataMeta(movie, $0) })
        else { return nil }
        var result = movie
        guard setFloats(values, in: &result, meta: meta) else { return nil }
        let moved = quickTimeMeta(result, meta, in: udta)
        return Array(result[..<udta.start]) + moved + Array(result[udta.end...])
    }

    /// `meta` as a QuickTime-style box directly under `moov`, followed by what is left of `udta`
    /// (`udta` itself with its other children, or a `free` box): as many bytes as `udta` had.
    private static func quickTimeMeta(_ movie: [UInt8], _ meta: BoxBytes.Box, in udta: BoxBytes.Box) -> [UInt8] {
        let rest = Array(movie[(udta.start + 8)..<meta.start]) + Array(movie[meta.end..<udta.end])
        var content = Array(movie[contentStart(movie, meta)..<meta.end])
        // What follows the new meta box: 12 bytes (8 + the dropped version and flags) when `udta`
        // held only the meta box.
        let room = udta.size - 8 - content.count
        var tail: [UInt8]
        if rest.isEmpty {
            tail = BoxBytes.header(size: room, type: "free") + [UInt8](repeating: 0, count: room - 8)
        } else {
            tail = BoxBytes.header(size: 8 + rest.count, type: "udta") + rest
            // No room for a `free` box: the handler's name (an empty C string) takes the spare bytes.
            let spare = room - tail.count
            let hdlr = BoxBytes.children(content, from: 0, to: content.count).first { $0.type == "hdlr" }
            if spare > 0, let hdlr {
                BoxBytes.setBE32(&content, hdlr.start, UInt32(hdlr.size + spare))
                content.insert(contentsOf: [UInt8](repeating: 0, count: spare), at: hdlr.end)
            }
        }
        return BoxBytes.header(size: 8 + content.count, type: "meta") + content + tail
    }

    /// Where the children of a `meta` box start: after the version and flags of an ISO full box,
    /// right after the header in QuickTime's form (whose first child is `hdlr`).
    private static func contentStart(_ bytes: [UInt8], _ meta: BoxBytes.Box) -> Int {
        meta.size >= 16 && BoxBytes.type(bytes, meta.start + 12) == "hdlr" ? meta.start + 8 : meta.start + 12
    }

    /// Whether `meta` holds `mdta` keys (its handler is `mdta`).
    private static func isMetadataMeta(_ bytes: [UInt8], _ meta: BoxBytes.Box) -> Bool {
        let hdlr = BoxBytes.children(bytes, from: contentStart(bytes, meta), to: meta.end).first { $0.type == "hdlr" }
        guard let hdlr, hdlr.size >= 20 else { return false }
        return BoxBytes.type(bytes, hdlr.start + 16) == "mdta"
    }

    /// Sets each key's placeholder `data` atom to type 23 and the float; false if one is missing.
    private static func setFloats(_ values: [String: Float], in bytes: inout [UInt8], meta: BoxBytes.Box) -> Bool {
        let children = BoxBytes.children(bytes, from: contentStart(bytes, meta), to: meta.end)
        guard let keys = children.first(where: { $0.type == "keys" }),
            let ilst = children.first(where: { $0.type == "ilst" })
        else { return false }
        let names = keyNames(bytes, keys)
        let items = BoxBytes.children(bytes, from: ilst.start + 8, to: ilst.end)
        for (key, value) in values {
            guard let index = names.firstIndex(of: key),
                let item = items.first(where: { BoxBytes.be32(bytes, $0.start + 4) == UInt32(index + 1) }),
                let data = BoxBytes.children(bytes, from: item.start + 8, to: item.end).first(where: {
                    $0.type == "data"
                }),
                data.size == 20, BoxBytes.be32(bytes, data.start + 8) == 1,
                Array(bytes[(data.start + 16)..<data.end]) == Array(placeholder.utf8)
            else { return false }
            BoxBytes.setBE32(&bytes, data.start + 8, float32Type)
            BoxBytes.setBE32(&bytes, data.start + 16, value.bitPattern)
        }
        return true
    }

    /// The key names of a `keys` box, in order (item n of `ilst` is key n, from 1).
    private static func keyNames(_ bytes: [UInt8], _ keys: BoxBytes.Box) -> [String] {
        guard keys.size >= 16 else { return [] }
        let count = Int(BoxBytes.be32(bytes, keys.start + 12))
        var names: [String] = []
        var offset = keys.start + 16
        for _ in 0..<count {
            guard offset + 8 <= keys.end else { break }
            let size = Int(BoxBytes.be32(bytes, offset))
            guard size >= 8, offset + size <= keys.end else { break }
            names.append(String(decoding: bytes[(offset + 8)..<(offset + size)], as: UTF8.self))
            offset += size
        }
        return names
    }
}

/// Reading and writing ISO BMFF box headers in a byte array.
enum BoxBytes {
    struct Box {
        var start: Int
        var size: Int
        var type: String
        var end: Int { start + size }
    }

    /// The boxes laid end to end in `bytes[from..<to]` (32-bit sizes; stops at one that does not fit).
    static func children(_ bytes: [UInt8], from: Int, to: Int) -> [Box] {
        var boxes: [Box] = []
        var offset = from
        while offset + 8 <= to {
            let size = Int(be32(bytes, offset))
            guard size >= 8, offset + size <= to else { break }
            boxes.append(Box(start: offset, size: size, type: type(bytes, offset + 4)))
            offset += size
        }
        return boxes
    }

    static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    static func setBE32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
    }

    static func type(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    static func header(size: Int, type: String) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4) + Array(type.utf8)
        setBE32(&bytes, 0, UInt32(size))
        return bytes
    }
}
