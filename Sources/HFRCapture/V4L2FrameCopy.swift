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
    /// On a multi-planar node: for each of FFmpeg's planes the V4L2 plane holding it and the bytes
    /// it takes (one entry, the whole picture, for a one-buffer layout such as NV12).
    private var planeLayout: [(source: Int, size: Int)] = []

    /// Prepares for the granted mode (an MJPEG mode gets its decoder now).
    init(granted: V4L2Capture.Granted) throws(AVFailure) {
        self.granted = granted
        jpeg = granted.format.conversion == .jpeg ? try JPEGDecoder(width: granted.width, height: granted.height) : nil
    }

    /// Whether the mode's pictures are JPEGs (MJPEG).
    var isJPEG: Bool { jpeg != nil }

    /// A copy of the compressed picture in buffer `index` (`bytesUsed` filled), for a decoder on
    /// another thread; nil when the buffer does not hold a whole JPEG (`JPEGDecoder.isWhole`).
    func jpeg(inBuffer index: Int, offset: Int = 0, bytesUsed: Int, of buffers: [UnsafeMutableRawBufferPointer])
        throws(AVFailure) -> Packet?
    {
        let buffer = buffers[index]
        let start = min(offset, buffer.count)
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[start..<min(buffer.count, start + bytesUsed)])
        guard JPEGDecoder.isWhole(bytes) else { return nil }
        return try Packet(copying: bytes)
    }

    /// Makes the views of a raw mode's mapped buffers; they must stay mapped while this copies.
    func attach(_ buffers: [UnsafeMutableRawBufferPointer]) throws(AVFailure) {
        guard case .raw(let format) = granted.format.conversion else { return }
        pictureSize = try Frame.pictureSize(
            width: granted.width, height: granted.height, format: format, bytesPerLine: granted.bytesPerLine)
        if granted.planeCount > 0 {
            planeLayout = try multiplanarLayout(format)
            return
        }
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

    /// An owned copy of the raw picture in buffer `index` of a multi-planar node, each plane read
    /// from its `offset` (`data_offset`); nil when a plane holds less than its part of the picture.
    func picture(
        inBuffer index: Int, planes filled: [(offset: Int, bytesUsed: Int)],
        of buffers: [[UnsafeMutableRawBufferPointer]]
    ) throws(AVFailure) -> Frame? {
        guard case .raw(let format) = granted.format.conversion, !planeLayout.isEmpty, index < buffers.count else {
            return nil
        }
        var bytes: [UnsafeRawBufferPointer] = []
        for (source, size) in planeLayout {
            guard source < filled.count, source < buffers[index].count, filled[source].bytesUsed >= size else {
                return nil
            }
            let buffer = UnsafeRawBufferPointer(buffers[index][source])
            bytes.append(UnsafeRawBufferPointer(rebasing: buffer[min(filled[source].offset, buffer.count)...]))
        }
        guard let order = granted.format.planeOrder else {
            return try view(of: bytes[0], format: format)?.copyPicture()
        }
        let view = try Frame.view(
            ofPlanes: bytes, width: granted.width, height: granted.height, format: format,
            bytesPerLine: order.map { granted.planeBytesPerLine[$0] })
        return try view?.copyPicture()
    }

    /// Where each of FFmpeg's planes is on a multi-planar node; throws when the driver's planes do
    /// not match the layout.
    private func multiplanarLayout(_ format: PixelFormat) throws(AVFailure) -> [(source: Int, size: Int)] {
        guard let order = granted.format.planeOrder else { return [(0, pictureSize)] }
        guard order.allSatisfy({ $0 < granted.planeCount }) else {
            throw AVFailure(
                code: -Errno.invalidArgument.rawValue,
                operation: "\(granted.format.fourCC) in \(granted.planeCount) planes (it needs \(order.count))")
        }
        let sizes = try Frame.planeSizes(
            width: granted.width, height: granted.height, format: format,
            bytesPerLine: order.map { granted.planeBytesPerLine[$0] })
        return Array(zip(order, sizes))
    }

    private func view(of bytes: UnsafeRawBufferPointer, format: PixelFormat) throws(AVFailure) -> Frame? {
        try Frame.view(
            of: bytes, width: granted.width, height: granted.height, format: format,
            bytesPerLine: granted.bytesPerLine)
    }
}
