import CFFmpeg

/// A SHA-256 digest being computed: owns FFmpeg's `AVSHA` context (Foundation on Linux has no
/// SHA-256). Feed it bytes with `update`, then take the digest once with `finalize`.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    /// A fresh digest; nil only when the context cannot be allocated.
    public init?() {
        guard let context = av_sha_alloc() else { return nil }
        av_sha_init(context, 256)
        self.context = context
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        av_sha_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The 32 bytes of the digest.
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest
    }

    /// Lower-case hex of the digest, as `sha256sum` prints it.
    public consuming func hexDigest() -> String {
        finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
