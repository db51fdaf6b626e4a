import CFFmpeg

/// Owns an `AVAudioFifo` of planar float samples: re-chunks audio into the frame size an encoder wants.
public struct AudioFIFO: ~Copyable {
    let fifo: OpaquePointer
    let format = AV_SAMPLE_FMT_FLTP
    let channels: Int32

    public init(channels: Int, capacity: Int = 4096) throws(AVFailure) {
        guard let fifo = av_audio_fifo_alloc(format, Int32(channels), Int32(capacity)) else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_audio_fifo_alloc", stage: .encoding)
        }
        self.fifo = fifo
        self.channels = Int32(channels)
    }

    deinit { av_audio_fifo_free(fifo) }

    /// Samples waiting.
    public var count: Int { Int(av_audio_fifo_size(fifo)) }

    /// Appends the samples of `frame` after its first `skipping` ones (same format and channels).
    public func write(_ frame: Frame, skipping: Int) throws(AVFailure) {
        let f = frame.pointer.pointee
        let n = Int(f.nb_samples) - skipping
        guard n > 0 else { return }
        let isPlanar = av_sample_fmt_is_planar(format) != 0
        let planes = isPlanar ? Int(channels) : 1
        let offset = skipping * Int(av_get_bytes_per_sample(format)) * (isPlanar ? 1 : Int(channels))
        var pointers = (0..<planes).map {
            UnsafeMutableRawPointer(f.extended_data[$0]!) + offset as UnsafeMutableRawPointer?
        }
        try check(av_audio_fifo_write(fifo, &pointers, Int32(n)), "av_audio_fifo_write", .encoding)
    }

    /// Appends `samples` samples of silence (to fill a gap in the capture and keep audio in sync).
    public func writeSilence(_ samples: Int) throws(AVFailure) {
        guard samples > 0 else { return }
        let isPlanar = av_sample_fmt_is_planar(format) != 0
        let planes = isPlanar ? Int(channels) : 1
        let bytes = samples * Int(av_get_bytes_per_sample(format)) * (isPlanar ? 1 : Int(channels))
        let buffers = (0..<planes).map { _ in UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 32) }
        defer { buffers.forEach { $0.deallocate() } }
        // Zero bytes are silence for the float and signed formats the FIFO is used with.
        buffers.forEach { $0.initializeMemory(as: UInt8.self, repeating: 0, count: bytes) }
        var pointers = buffers.map { Optional($0) }
        try check(av_audio_fifo_write(fifo, &pointers, Int32(samples)), "av_audio_fifo_write", .encoding)
    }

    /// Moves up to `samples` samples into a new frame (default channel layout) at `sampleRate`.
    public func read(_ samples: Int, sampleRate: Int) throws(AVFailure) -> Frame {
        let n = min(samples, count)
        let frame = try Frame.planarFloat(samples: n, channels: Int(channels), sampleRate: sampleRate)
        let read = frame.pointer.pointee.extended_data.withMemoryRebound(
            to: UnsafeMutableRawPointer?.self, capacity: Int(channels)
        ) { av_audio_fifo_read(fifo, $0, Int32(n)) }
        try check(read, "av_audio_fifo_read", .encoding)
        return frame
    }
}
