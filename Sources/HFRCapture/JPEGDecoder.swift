import HFRMedia

/// Decodes the JPEG pictures of an MJPEG camera mode with libavcodec's MJPEG decoder.
///
/// A picture that is not a whole JPEG of the mode's size is no picture: a buffer that does not
/// start with SOI, one without an EOI marker (truncated: FF D9 cannot occur inside entropy-coded
/// data, so its absence is exact; bytes after it are padding some cameras add), one the decoder
/// refuses or flags, one of another size. libavcodec itself would "emulate" a missing EOI and hand
/// out a half-grey picture.
public final class JPEGDecoder {
    public let width: Int
    public let height: Int
    private let decoder: Decoder

    public init(width: Int, height: Int) throws(AVFailure) {
        self.width = width
        self.height = height
        decoder = try Decoder(
            parameters: CodecParameters.mjpeg(width: width, height: height), timeBase: Rational(1, 1_000_000),
            threads: 1)
    }

    /// The picture in `data`; nil when the JPEG does not decode (a torn or empty buffer).
    public func decode(_ data: UnsafeRawBufferPointer) throws(AVFailure) -> Frame? {
        guard Self.isWhole(data) else { return nil }
        return try decodeChecked(try Packet(copying: data))
    }

    /// The picture in `packet` (its pts carried over); nil when it is not a whole JPEG that decodes.
    public func decode(_ packet: Packet) throws(AVFailure) -> Frame? {
        guard packet.withData({ Self.isWhole($0) }) else { return nil }
        let frame = try decodeChecked(packet)
        frame?.pts = packet.pts
        return frame
    }

    private func decodeChecked(_ packet: Packet) throws(AVFailure) -> Frame? {
        let frame = try Frame()
        do {
            _ = try decoder.send(packet)
            guard case .value = try decoder.receive(into: frame), !frame.isCorrupt else { return nil }
        } catch {
            // A camera's bad JPEG is one lost frame, not the end of the recording.
            if error.isInvalidData { return nil }
            throw error
        }
        guard frame.width == width, frame.height == height else { return nil }
        return frame
    }

    /// Starts with SOI (FF D8) and holds an EOI (FF D9): cheap enough for the capture thread (the
    /// EOI is found within the last bytes of a whole picture).
    public static func isWhole(_ data: UnsafeRawBufferPointer) -> Bool {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return false }
        var i = data.count - 1
        while i >= 3 {
            if data[i] == 0xD9, data[i - 1] == 0xFF { return true }
            i -= 1
        }
        return false
    }
}
