import CFFmpeg

extension Frame {
    /// Planar float audio (what hfr's AAC encoder and stretchers take): `samples` per channel in the
    /// default layout of `channels`, buffers allocated, contents undefined.
    public static func planarFloat(samples: Int, channels: Int, sampleRate: Int) throws(AVFailure) -> Frame {
        try planarFloat(samples: samples, sampleRate: sampleRate, layout: channelLayout(named: nil, channels: channels))
    }

    /// Planar float audio in `layout` (a native order: nothing to free).
    static func planarFloat(samples: Int, sampleRate: Int, layout: AVChannelLayout) throws(AVFailure) -> Frame {
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.nb_samples = Int32(samples)
        f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        f.pointee.sample_rate = Int32(sampleRate)
        f.pointee.ch_layout = layout
        try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
        return frame
    }

    /// Audio channels.
    public var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }

    /// Audio samples per second.
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }

    /// Whether this is planar float audio with `channels` channels at `sampleRate`.
    public func isPlanarFloat(channels: Int, sampleRate: Int? = nil) -> Bool {
        pointer.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue && channelCount == channels
            && sampleRate.map { $0 == self.sampleRate } ?? true
    }

    /// Channel `channel` of planar float audio (check `isPlanarFloat` first); valid while the frame is.
    public func floatPlane(_ channel: Int) -> UnsafeMutableBufferPointer<Float> {
        let plane = UnsafeMutableRawPointer(pointer.pointee.extended_data[channel]!)
        return UnsafeMutableBufferPointer(start: plane.assumingMemoryBound(to: Float.self), count: sampleCount)
    }

    /// Keeps only the first `count` samples (the rest are not encoded or written).
    public func truncateSamples(to count: Int) {
        pointer.pointee.nb_samples = Int32(max(0, min(count, sampleCount)))
    }

    /// The decoder's best guess of this frame's pts (FFmpeg's `best_effort_timestamp`); nil when unknown.
    public var bestEffortTimestamp: Int64? { Packet.optional(pointer.pointee.best_effort_timestamp) }
}
