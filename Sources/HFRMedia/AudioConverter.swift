import CFFmpeg

/// Converts decoded audio of any sample format, layout and rate to planar float with a fixed
/// channel count (in `layout`, else the default one) and rate, creating its resampler from the
/// first frame that needs one. The one place record and export turn captured or decoded audio
/// into what the encoders take.
public struct AudioConverter: ~Copyable {
    public let channels: Int
    public let sampleRate: Int
    /// FFmpeg's name of the layout converted to; nil = the default of `channels`.
    public let layout: String?
    /// `layout` as FFmpeg holds it, read once (a native order: nothing to free).
    private let target: AVChannelLayout
    private var resampler: Resampler?

    public init(channels: Int, sampleRate: Int, layout: String? = nil) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.layout = layout
        target = channelLayout(named: layout, channels: channels)
    }

    /// An empty planar float frame of `samples` in the converter's layout and rate (to fill).
    public func planarFloatFrame(samples: Int) throws(AVFailure) -> Frame {
        try Frame.planarFloat(samples: samples, sampleRate: sampleRate, layout: target)
    }

    /// `frame` itself when it already is planar float of the right shape, else a converted copy.
    public mutating func convert(_ frame: Frame) throws(AVFailure) -> Frame {
        let f = frame.pointer
        if f.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            // Capture devices may only say "2 channels"; the resampler wants an order: take the default.
            let count = f.pointee.ch_layout.nb_channels
            av_channel_layout_uninit(&f.pointee.ch_layout)
            av_channel_layout_default(&f.pointee.ch_layout, count)
        }
        if frame.isPlanarFloat(channels: channels, sampleRate: sampleRate) { return frame }
        if resampler == nil {
            resampler = try Resampler(
                from: (f.pointee.ch_layout, AVSampleFormat(f.pointee.format), frame.sampleRate),
                to: (target, AV_SAMPLE_FMT_FLTP, sampleRate))
        }
        let out = try Frame()
        out.pointer.pointee.ch_layout = target
        out.pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        out.pointer.pointee.sample_rate = Int32(sampleRate)
        try resampler!.convert(frame, into: out)
        out.pts = frame.pts
        return out
    }
}
