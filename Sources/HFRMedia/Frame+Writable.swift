import CFFmpeg

extension Frame {
    /// Makes the frame's picture its own to write: a decoder's frames share buffers with the
    /// pictures it still predicts from, so those are copied first (`av_frame_make_writable`).
    public func makeWritable() throws(AVFailure) {
        let status = av_frame_make_writable(pointer)
        guard status >= 0 else { throw AVFailure(code: status, operation: "av_frame_make_writable") }
    }
}
