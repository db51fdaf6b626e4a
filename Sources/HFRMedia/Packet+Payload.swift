import CFFmpeg

extension Packet {
    /// Replaces the payload with a padded copy of `bytes`; timestamps, flags and side data stay.
    public func replacePayload(with bytes: [UInt8]) throws(AVFailure) {
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let buffer = av_buffer_allocz(bytes.count + padding) else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_buffer_allocz")
        }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.pointee.data.update(from: base, count: bytes.count) }
        }
        av_buffer_unref(&pointer.pointee.buf)
        pointer.pointee.buf = buffer
        pointer.pointee.data = buffer.pointee.data
        pointer.pointee.size = Int32(bytes.count)
    }
}
