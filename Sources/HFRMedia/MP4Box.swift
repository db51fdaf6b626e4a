#if canImport(Glibc)
    import Glibc
#endif

/// Reading ISO BMFF (MP4/MOV) boxes from a file descriptor: headers one at a time, and the bodies
/// of only the small boxes a reader asks for.
public enum MP4Box {
    /// (size including header, four-character type, header size) of the box starting at `bytes`.
    public static func header(_ bytes: [UInt8], remaining: Int64) -> (Int64, String, Int64)? {
        guard bytes.count >= 8 else { return nil }
        var size = Int64(u32(bytes[...], 0))
        let type = String(decoding: bytes[4..<8], as: UTF8.self)
        var headerSize: Int64 = 8
        if size == 1 {
            guard bytes.count >= 16 else { return nil }
            size = Int64(u64(bytes[...], 8))
            headerSize = 16
        } else if size == 0 {
            size = remaining
        }
        guard size >= headerSize, size <= remaining else { return nil }
        return (size, type, headerSize)
    }

    /// The big-endian 32-bit value at `offset` (from the slice's start); the caller checks the length.
    public static func u32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        let i = bytes.startIndex + offset
        return UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    /// The big-endian 64-bit value at `offset`.
    public static func u64(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(u32(bytes, offset)) << 32 | UInt64(u32(bytes, offset + 4))
    }

    /// Up to `count` bytes at `offset`; nil when fewer than `min(count, 8)` could be read.
    public static func read(_ fd: Int32, at offset: Int64, count: Int) -> [UInt8]? {
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
