import HFRMedia

/// Turns the bytes of a filled capture buffer into an owned frame, so the buffer can go back to
/// the driver at once: raw layouts are copied through a view of each mapped buffer (made once,
/// valid while the buffer is mapped), MJPEG pictures are decoded.
final class V4L2FrameCopy {
    private let granted: V4L2Capture.Granted
    private let jpeg: JPEGDecoder?
    /// A view of each mapped buffer of a raw mode, nil for one too short for a picture (none for
    /// MJPEG, and before `attach`).
    private var views: [Frame?] = []
    /// The bytes a whole raw picture takes; a buffer filled with fewer holds a torn frame.
    private var pictureSize = Int.max

    /// Prepares for the granted mode (an MJPEG mode gets its decoder now).
    init(granted: V4L2Capture.Granted) throws(AVFailure) {
        self.granted = granted
        jpeg = granted.format.conversion == .jpeg ? try JPEGDecoder(width: granted.width, height: granted.height) : nil
    }

    /// Whether the mode's pictures are JPEGs (MJPEG).
    var isJPEG: Bool { jpeg != nil }

    /// A copy of the compressed picture in buffer `index` (`bytesUsed` filled), for a decoder on
    /// another thread; nil when the buffer does not hold a whole JPEG (`JPEGDecoder.isWhole`).
    func jpeg(inBuffer index: Int, bytesUsed: Int, of buffers: [UnsafeMutableRawBufferPointer]) throws(AVFailure)
        -> Packet?
    {
        let bytes = UnsafeRawBufferPointer(rebasing: buffers[index].prefix(bytesUsed))
        guard JPEGDecoder.isWhole(bytes) else { return nil }
        return try Packet(copying: bytes)
    }

    /// Makes the views of a raw mode's mapped buffers; they must stay mapped while this copies.
    func attach(_ buffers: [UnsafeMutableRawBufferPointer]) throws(AVFailure) {
        guard case .raw(let format) = granted.format.conversion else { return }
        pictureSize = try Frame.pictureSize(
            width: granted.width, height: granted.height, format: format, bytesPerLine: granted.bytesPerLine)
        views = []
        for buffer in buffers {
            views.append(try view(of: UnsafeRawBufferPointer(buffer), format: format))
        }
    }

    /// An owned copy of the picture in buffer `index` (`bytesUsed` filled); nil when it holds less
    /// than a whole picture or does not decode.
    func picture(inBuffer index: Int, bytesUsed: Int, of buffers: [UnsafeMutableRawBufferPointer]) throws(AVFailure)
        -> Frame?
    {
        if let jpeg {
            return try jpeg.decode(UnsafeRawBufferPointer(rebasing: buffers[index].prefix(bytesUsed)))
        }
        guard index < views.count, let view = views[index], bytesUsed >= pictureSize else { return nil }
        return try view.copyPicture()
    }

    private func view(of bytes: UnsafeRawBufferPointer, format: PixelFormat) throws(AVFailure) -> Frame? {
        try Frame.view(
            of: bytes, width: granted.width, height: granted.height, format: format,
            bytesPerLine: granted.bytesPerLine)
    }
}
