import HFRMedia

/// Decodes the JPEG pictures of an MJPEG camera mode with libavcodec's MJPEG decoder.
final class JPEGDecoder {
    private let decoder: Decoder

    init(width: Int, height: Int) throws(AVFailure) {
        decoder = try Decoder(
            parameters: CodecParameters.mjpeg(width: width, height: height), timeBase: Rational(1, 1_000_000),
            threads: 1)
    }

    /// The picture in `data`; nil when the JPEG does not decode (a torn or empty buffer).
    func decode(_ data: UnsafeRawBufferPointer) throws(AVFailure) -> Frame? {
        let packet = try Packet(copying: data)
        let frame = try Frame()
        do {
            _ = try decoder.send(packet)
            guard case .value = try decoder.receive(into: frame), !frame.isCorrupt else { return nil }
        } catch {
            // A camera's bad JPEG is one lost frame, not the end of the recording.
            if error.isInvalidData { return nil }
            throw error
        }
        return frame
    }
}
