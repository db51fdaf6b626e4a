import CFFmpeg

extension Encoder {
    /// What a retimed audio track is encoded to in container `format`: the source's own PCM codec
    /// where the container stores it (PCM stays PCM at its depth in MOV and Matroska), AAC where the
    /// container takes AAC (MP4, MOV, Matroska), else Vorbis (WebM).
    public static func retimedAudioCodec(source: StreamInfo, format: String) -> String {
        if source.codecName.hasPrefix("pcm_"), avcodec_find_encoder(AVCodecID(source.codecID)) != nil,
            format != "mp4", Muxer.accepts(codecID: source.codecID, format: format)
        {
            return source.codecName
        }
        return Muxer.accepts(codecID: AV_CODEC_ID_AAC.rawValue, format: format) ? "aac" : "libvorbis"
    }

    /// Opens encoder `codec` (from `retimedAudioCodec`) for `channels` channels (default layout)
    /// at `sampleRate`, in the first sample format it takes; AAC as `aac(sampleRate:channels:)`.
    public static func retimedAudio(codec: String, sampleRate: Int, channels: Int) throws(AVFailure) -> Encoder {
        if codec == "aac" { return try aac(sampleRate: sampleRate, channels: channels) }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        let chosen = layout
        let format = avcodec_find_encoder_by_name(codec)?.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
        return try Encoder(name: codec) { ctx in
            ctx.pointee.sample_rate = Int32(sampleRate)
            ctx.pointee.sample_fmt = format
            ctx.pointee.ch_layout = chosen
            if codec == "libvorbis" { ctx.pointee.bit_rate = Int64(64_000 * channels) }
            ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
            ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
    }

    /// The AAC sampling frequency nearest below `rate` (AAC has none above 96 kHz).
    public static func aacSampleRate(nearest rate: Int) -> Int {
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]
        return rates.first { $0 <= rate } ?? 8000
    }

    /// The encoder's codec name ("aac", "pcm_s24le" …).
    public var codecName: String { String(cString: context.pointee.codec.pointee.name) }

    /// A frame in the encoder's sample format holding planar float `frame` (the same frame when
    /// the encoder takes planar float), converted by `converter` (made on first use).
    public func adapt(_ frame: Frame, with converter: inout Resampler?) throws(AVFailure) -> Frame {
        let format = context.pointee.sample_fmt
        guard format != AV_SAMPLE_FMT_FLTP else { return frame }
        if converter == nil {
            converter = try Resampler(
                from: (context.pointee.ch_layout, AV_SAMPLE_FMT_FLTP, Int(context.pointee.sample_rate)),
                to: (context.pointee.ch_layout, format, Int(context.pointee.sample_rate)))
        }
        let out = try Frame()
        av_channel_layout_copy(&out.pointer.pointee.ch_layout, &context.pointee.ch_layout)
        out.pointer.pointee.format = format.rawValue
        out.pointer.pointee.sample_rate = context.pointee.sample_rate
        try converter!.convert(frame, into: out)
        out.pts = frame.pts
        return out
    }
}
