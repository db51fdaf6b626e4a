import CFFmpeg

/// An owned `AVPacket`: compressed data of one frame (video) or a few (audio) with its timestamps.
///
/// A final class so a packet can be moved between stage threads. `@unchecked Sendable`: it owns a
/// C struct the checker cannot see into; a packet is handed from one stage to the next, never shared.
public final class Packet: @unchecked Sendable {
    /// The packet; owned by this object and freed with it.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet.
    public init() throws(AVFailure) {
        guard let p = av_packet_alloc() else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_packet_alloc")
        }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    /// Drops the payload, keeping the allocation for the next read.
    public func unref() { av_packet_unref(pointer) }

    /// A new packet with the same timestamps and flags sharing this one's payload (reference
    /// counted, not copied): one packet written into more than one file (a muxer takes the payload
    /// of what it writes).
    public func reference() throws(AVFailure) -> Packet {
        let copy = try Packet()
        let status = av_packet_ref(copy.pointer, pointer)
        guard status >= 0 else { throw AVFailure(code: status, operation: "av_packet_ref") }
        return copy
    }

    public var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// Presentation timestamp in the stream's time base; nil when unknown.
    public var pts: Int64? {
        get { Packet.optional(pointer.pointee.pts) }
        set { pointer.pointee.pts = newValue ?? HFR_AV_NOPTS_VALUE }
    }

    /// Decoding timestamp in the stream's time base; nil when unknown.
    public var dts: Int64? {
        get { Packet.optional(pointer.pointee.dts) }
        set { pointer.pointee.dts = newValue ?? HFR_AV_NOPTS_VALUE }
    }

    /// Duration in the stream's time base (0 when unknown).
    public var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }

    /// A packet holding a copy of `bytes` (a camera's JPEG picture, a test's payload).
    public convenience init(copying bytes: UnsafeRawBufferPointer) throws(AVFailure) {
        try self.init()
        try check(av_new_packet(pointer, Int32(bytes.count)), "av_new_packet")
        if let source = bytes.baseAddress, bytes.count > 0 {
            pointer.pointee.data.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
    }

    /// Converts pts, dts and duration from one time base to another (FFmpeg's av_packet_rescale_ts).
    public func rescaleTimestamps(from source: Rational, to target: Rational) {
        guard let s = source.avRational, let t = target.avRational else { return }
        av_packet_rescale_ts(pointer, s, t)
    }

    public var size: Int { Int(pointer.pointee.size) }

    /// Byte position in the input, when the demuxer knows it.
    public var position: Int64? { pointer.pointee.pos >= 0 ? pointer.pointee.pos : nil }

    public var isKeyframe: Bool {
        get { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
        set { setFlag(AV_PKT_FLAG_KEY, newValue) }
    }

    /// Whether the container marks this sample as not referenced by others (MP4 `sdtp`).
    public var isDisposable: Bool {
        get { pointer.pointee.flags & AV_PKT_FLAG_DISPOSABLE != 0 }
        set { setFlag(AV_PKT_FLAG_DISPOSABLE, newValue) }
    }

    /// Whether the demuxer marks this packet as hidden by an edit list (decoded, never shown).
    public var isDiscarded: Bool {
        get { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }
        set { setFlag(AV_PKT_FLAG_DISCARD, newValue) }
    }

    private func setFlag(_ flag: Int32, _ isSet: Bool) {
        pointer.pointee.flags = isSet ? pointer.pointee.flags | flag : pointer.pointee.flags & ~flag
    }

    /// Samples the decoder discards from the start of this packet (AAC priming behind an edit list).
    public var skippedStartSamples: Int {
        var size: Int = 0
        guard let data = av_packet_get_side_data(pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 4 else {
            return 0
        }
        return Int(UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24)
    }

    public var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }

    /// The payload bytes, valid only inside `body`.
    public func withData<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let data = pointer.pointee.data else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: data, count: size))
    }

    static func optional(_ value: Int64) -> Int64? { value == HFR_AV_NOPTS_VALUE ? nil : value }
}

extension Packet {
    /// A packet whose payload is `bytes` of `file`, not a copy (no read, no allocation): for a
    /// muxer made with `Muxer(path:format:copyingFrom:)`, which copies it file to file. Valid
    /// while `file` is; not padded, so not for decoders.
    public static func view(of bytes: UnsafeRawBufferPointer, in file: MappedFile) throws(AVFailure) -> Packet {
        let packet = try Packet()
        packet.pointer.pointee.data = UnsafeMutablePointer(
            mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        packet.pointer.pointee.size = Int32(bytes.count)
        packet.pointer.pointee.pos = file.offset(of: bytes.baseAddress!, count: bytes.count) ?? -1
        return packet
    }
}
