/// 64-bit FNV-1a: a tiny, fixed, well-known hash (Swift's own `Hasher` is seeded per process).
public enum FNV1a {
    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
