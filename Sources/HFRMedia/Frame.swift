import CFFmpeg

/// An owned `AVFrame`: decoded pictures or audio samples.
///
/// A final class so a frame can be moved between stage threads. `@unchecked Sendable`: it owns a
/// C struct the checker cannot see into; a frame is handed from one stage to the next, never shared.
public final class Frame: @unchecked Sendable {
    /// The frame; owned by this object and freed with it.
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame.
    public init() throws(AVFailure) {
        guard let f = av_frame_alloc() else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_frame_alloc")
        }
        pointer = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    /// Drops the data, keeping the allocation.
    public func unref() { av_frame_unref(pointer) }

    /// Presentation timestamp in the producer's time base; nil when unknown.
    public var pts: Int64? {
        get { Packet.optional(pointer.pointee.pts) }
        set { pointer.pointee.pts = newValue ?? HFR_AV_NOPTS_VALUE }
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    /// The picture's pixel format; nil for audio frames and unknown formats.
    public var pixelFormat: PixelFormat? {
        pointer.pointee.format >= 0 && pointer.pointee.width > 0 ? PixelFormat(rawValue: pointer.pointee.format) : nil
    }

    /// Audio samples per channel.
    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    /// Bytes of the data buffers the frame holds (its planes with their padding): what keeping it
    /// costs in memory. 0 for a view of memory it does not own.
    public var byteCount: Int {
        let f = pointer.pointee
        let buffers = withUnsafeBytes(of: f.buf) { Array($0.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self)) }
        let extended = (0..<Int(f.nb_extended_buf)).map { f.extended_buf[$0] }
        return (buffers + extended).reduce(0) { $0 + ($1.map { Int($0.pointee.size) } ?? 0) }
    }

    /// Whether the decoder saw errors in this frame's data.
    public var isCorrupt: Bool {
        pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || pointer.pointee.decode_error_flags != 0
    }
}
