import CFFmpeg

extension String {
    /// The text of a NUL-terminated C buffer filled by FFmpeg.
    public init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// FFmpeg's name for a channel layout ("mono", "stereo", "5.1"), which its parsers read back.
func channelLayoutName(_ layout: AVChannelLayout) -> String? {
    var buffer = [CChar](repeating: 0, count: 128)
    var copy = layout
    return av_channel_layout_describe(&copy, &buffer, buffer.count) > 0 ? String(nulTerminated: buffer) : nil
}

/// The layout FFmpeg names `name` when it is a native one of `channels` channels ("5.1(side)",
/// "7.1(wide)"), else the default layout of `channels` (an unnamed or custom order).
func channelLayout(named name: String?, channels: Int) -> AVChannelLayout {
    var layout = AVChannelLayout()
    if let name, av_channel_layout_from_string(&layout, name) == 0, layout.order == AV_CHANNEL_ORDER_NATIVE,
        layout.nb_channels == Int32(channels)
    {
        return layout
    }
    av_channel_layout_uninit(&layout)
    av_channel_layout_default(&layout, Int32(channels))
    return layout
}

/// FFmpeg's name for the default layout of `channels` channels ("mono", "stereo"), as filter
/// graphs take it.
public func defaultChannelLayoutName(channels: Int) -> String {
    var layout = AVChannelLayout()
    av_channel_layout_default(&layout, Int32(channels))
    return channelLayoutName(layout) ?? "\(channels)c"
}
