import CFFmpeg
import HFRMedia

/// Decodes the JPEG pictures of an MJPEG camera mode with libavcodec's MJPEG decoder.
final class JPEGDecoder {
    private let decoder: Decoder
    private let packet: Packet

    init(width: Int, height: Int) throws(AVFailure) {
        guard let parameters = avcodec_parameters_alloc() else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avcodec_parameters_alloc")
        }
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        defer { avcodec_parameters_free(&owned) }
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = AV_CODEC_ID_MJPEG
        parameters.pointee.width = Int32(width)
        parameters.pointee.height = Int32(height)
        decoder = try Decoder(parameters: parameters, timeBase: Rational(1, 1_000_000), threads: 1)
        packet = try Packet()
    }

    /// The picture in `data`; nil when the JPEG does not decode (a torn or empty buffer).
    func decode(_ data: UnsafeRawBufferPointer) throws(AVFailure) -> Frame? {
        packet.unref()
        try check(av_new_packet(packet.pointer, Int32(data.count)), "av_new_packet")
        if let source = data.baseAddress {
            packet.pointer.pointee.data.update(from: source.assumingMemoryBound(to: UInt8.self), count: data.count)
        }
        let frame = try Frame()
        do {
            _ = try decoder.send(packet)
            guard case .value = try decoder.receive(into: frame), !frame.isCorrupt else { return nil }
        } catch {
            // A camera's bad JPEG is one lost frame, not the end of the recording.
            if error.code == HFR_AVERROR_INVALIDDATA { return nil }
            throw error
        }
        return frame
    }
}
