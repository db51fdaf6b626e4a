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

/// FFmpeg's name for the default layout of `channels` channels ("mono", "stereo"), as filter
/// graphs take it.
public func defaultChannelLayoutName(channels: Int) -> String {
    var layout = AVChannelLayout()
    av_channel_layout_default(&layout, Int32(channels))
    return channelLayoutName(layout) ?? "\(channels)c"
}
