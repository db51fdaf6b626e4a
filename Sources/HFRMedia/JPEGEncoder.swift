import CFFmpeg

/// Pictures to JPEG for the live preview: scaled (swscale) to at most `maxWidth` pixels wide, then
/// libavcodec's mjpeg encoder. The scaler and encoder are made for the first picture's geometry and
/// remade when it changes.
public struct JPEGEncoder: ~Copyable {
    public let maxWidth: Int
    /// mjpeg's quantizer: 2 (best) … 31; 5 is a sharp picture at ~40 KB for 640x360.
    let quality: Int32
    private var scaler: Scaler?
    private var encoder: Encoder?
    private var input: (width: Int, height: Int, format: PixelFormat)?
    private let scaled: Frame
    private let packet: Packet
    private var count: Int64 = 0

    public init(maxWidth: Int = 640, quality: Int = 5) throws(AVFailure) {
        // The throwing allocations first: a noncopyable value is initialized all at once.
        let frame = try Frame()
        let packet = try Packet()
        self.maxWidth = maxWidth
        self.quality = Int32(quality)
        scaler = nil
        encoder = nil
        scaled = frame
        self.packet = packet
    }

    /// The size a `width`x`height` picture is scaled to: at most `maxWidth` wide, even sides.
    public static func outputSize(width: Int, height: Int, maxWidth: Int) -> (width: Int, height: Int) {
        guard width > maxWidth else { return (max(2, width & ~1), max(2, height & ~1)) }
        let h = (height * maxWidth + width / 2) / width
        return (maxWidth & ~1, max(2, h & ~1))
    }

    /// One JPEG image of `frame`.
    public mutating func encode(_ frame: Frame) throws(AVFailure) -> [UInt8] {
        guard let format = frame.pixelFormat else { throw AVFailure.invalidData("preview: not a picture") }
        if input == nil || input!.width != frame.width || input!.height != frame.height || input!.format != format {
            try prepare(width: frame.width, height: frame.height, format: format)
        }
        try scaler!.scale(frame, into: scaled)
        // The mpegvideo encoders refuse a pts that does not increase.
        scaled.pointer.pointee.pts = count
        count += 1
        // With AV_CODEC_FLAG_QSCALE the mpegvideo encoders take each frame's own quality.
        scaled.pointer.pointee.quality = quality * FF_QP2LAMBDA
        _ = try encoder!.send(scaled)
        packet.unref()
        guard case .value = try encoder!.receive(into: packet) else {
            throw AVFailure.invalidData("preview: the JPEG encoder returned no image")
        }
        let p = packet.pointer.pointee
        return [UInt8](UnsafeBufferPointer(start: p.data, count: Int(p.size)))
    }

    private mutating func prepare(width: Int, height: Int, format: PixelFormat) throws(AVFailure) {
        let size = Self.outputSize(width: width, height: height, maxWidth: maxWidth)
        scaler = try Scaler(
            from: (width, height, format), to: (size.width, size.height, .yuvj420p))
        let q = quality
        encoder = try Encoder(name: "mjpeg") { ctx in
            ctx.pointee.width = Int32(size.width)
            ctx.pointee.height = Int32(size.height)
            ctx.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
            ctx.pointee.time_base = AVRational(num: 1, den: 30)
            ctx.pointee.flags |= AV_CODEC_FLAG_QSCALE
            ctx.pointee.global_quality = q * FF_QP2LAMBDA
            ctx.pointee.thread_count = 1
        }
        input = (width, height, format)
    }
}
