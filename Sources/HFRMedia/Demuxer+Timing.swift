import CFFmpeg

extension Demuxer {
    /// Opens `input.path`. A raw H.264/HEVC stream (`isRawStream`) gets `input.timing`'s times
    /// (see `PacketRetimer`): its packets, `streams` and `durationSeconds` say them. Timing given
    /// for a container is not applied (it has timestamps of its own): callers refuse it.
    public init(input: MediaInput) throws(AVFailure) {
        try self.init(url: input.path, timing: input.timing)
    }

    /// Whether the input is a raw H.264 or HEVC elementary stream: frames without timestamps (the
    /// demuxer invents 25 fps), which need an `InputTiming`.
    public var isRawStream: Bool { Demuxer.rawFormats.contains(formatName) }

    /// The retimer for the video stream of `context`, the raw stream at `url` (nil for others).
    /// One that may reorder frames (a reorder delay) has its presentation order found first.
    static func retimer(
        _ timing: InputTiming, for context: UnsafeMutablePointer<AVFormatContext>, url: String
    ) throws(AVFailure) -> PacketRetimer? {
        guard rawFormats.contains(String(cString: context.pointee.iformat.pointee.name)),
            let stream = (0..<Int(context.pointee.nb_streams)).lazy.map({ context.pointee.streams[$0]! })
                .first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO })
        else { return nil }
        let info = StreamInfo(stream)
        let order =
            stream.pointee.codecpar.pointee.video_delay > 0
            ? try PresentationOrder.of(path: url, stream: info.index, codec: info.codecName) : nil
        return try PacketRetimer(timing: timing, stream: info, order: order)
    }

    static let rawFormats: Set<String> = ["h264", "hevc"]

    /// Gives `packet` its time; with none left, counts the frames still to come for the error.
    func retime(_ packet: Packet, by retimer: PacketRetimer) throws(AVFailure) {
        guard retimer.hasNext else {
            var frames = retimer.framesRead + 1
            while true {
                packet.unref()
                let result = av_read_frame(context, packet.pointer)
                if result == HFR_AVERROR_EOF { break }
                try check(result, "av_read_frame", .readingInput)
                if packet.streamIndex == retimer.streamIndex { frames += 1 }
            }
            throw retimer.countFailure(frames: frames)
        }
        try retimer.retime(packet)
    }
}
