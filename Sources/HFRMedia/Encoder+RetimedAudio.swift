import CFFmpeg

extension Encoder {
    /// What a retimed audio track is encoded to in `container`: lossless audio in its own codec
    /// where the container stores it (PCM at its depth in MOV and Matroska, FLAC in Matroska, ALAC
    /// in MP4, MOV and Matroska), AAC where the container takes AAC (MP4, MOV, Matroska), else
    /// Vorbis (WebM).
    public static func retimedAudioCodec(source: StreamInfo, format container: Container) -> String {
        if isLosslessAudio(source.codecName), container.keepsLosslessAudio(source.codecName),
            avcodec_find_encoder(AVCodecID(source.codecID)) != nil,
            container.holds(codecID: source.codecID)
        {
            return source.codecName
        }
        return container.holds(codecID: AV_CODEC_ID_AAC.rawValue) ? "aac" : "libvorbis"
    }

    /// Whether `codec` (FFmpeg's name) is lossless audio hfr keeps in its own codec: PCM, FLAC, ALAC.
    public static func isLosslessAudio(_ codec: String) -> Bool {
        codec.hasPrefix("pcm_") || codec == "flac" || codec == "alac"
    }

    /// Opens encoder `codec` (from `retimedAudioCodec`) for `channels` channels in `layout`
    /// (FFmpeg's name; nil: the default) at `sampleRate`, in the narrowest sample format it takes
    /// that holds `bits` per sample (24-bit FLAC or ALAC stays 24-bit); AAC as `aac`.
    public static func retimedAudio(
        codec: String, sampleRate: Int, channels: Int, layout: String? = nil, bits: Int = 16
    ) throws(AVFailure) -> Encoder {
        if codec == "aac" { return try aac(sampleRate: sampleRate, channels: channels, layout: layout) }
        let chosen = channelLayout(named: layout, channels: channels)
        let format = sampleFormat(of: codec, holding: bits)
        let isInteger = ![AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP].contains(format)
        return try Encoder(name: codec) { ctx in
            ctx.pointee.sample_rate = Int32(sampleRate)
            ctx.pointee.sample_fmt = format
            ctx.pointee.ch_layout = chosen
            // Lossless encoders write the depth given here (24 of a 32-bit sample format).
            if isInteger {
                ctx.pointee.bits_per_raw_sample = Int32(min(bits, 8 * Int(av_get_bytes_per_sample(format))))
            }
            if codec == "libvorbis" { ctx.pointee.bit_rate = Int64(64_000 * channels) }
            ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
            ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
    }

    /// The narrowest of `codec`'s sample formats with at least `bits` per sample (its first when
    /// none has).
    static func sampleFormat(of codec: String, holding bits: Int) -> AVSampleFormat {
        var formats: [AVSampleFormat] = []
        if var p = avcodec_find_encoder_by_name(codec)?.pointee.sample_fmts {
            while p.pointee != AV_SAMPLE_FMT_NONE {
                formats.append(p.pointee)
                p += 1
            }
        }
        let wide = formats.filter { 8 * Int(av_get_bytes_per_sample($0)) >= bits }
        return wide.min { av_get_bytes_per_sample($0) < av_get_bytes_per_sample($1) } ?? formats.first
            ?? AV_SAMPLE_FMT_FLTP
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
