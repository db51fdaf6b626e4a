import CFFmpeg

extension PixelFormat {
    /// More than 8 bits per sample, or chroma other than 4:2:0: what hfr's layered OpenH264
    /// encoder (8-bit 4:2:0 only) would lose.
    public var exceedsI420: Bool {
        guard let d = av_pix_fmt_desc_get(av)?.pointee else { return false }
        return d.comp.0.depth > 8 || d.log2_chroma_w != 1 || d.log2_chroma_h != 1
    }
}

extension Encoder {
    /// The libavcodec encoder that writes pictures of `format` as they are: libx264 (High 10,
    /// High 4:2:2, High 4:4:4) where it takes the format, else libx265 (12-bit); nil when neither.
    public static func deliveryCodec(for format: PixelFormat) -> String? {
        ["libx264", "libx265"].first { encoder($0, takes: format) }
    }

    /// The encoder a WebM re-encode writes with (WebM stores VP8, VP9 and AV1, not H.264):
    /// libvpx-vp9, whose profiles 1–3 also keep 10/12-bit and 4:2:2/4:4:4 pictures; nil when this
    /// FFmpeg has none.
    public static let webmCodec: String? = ["libvpx-vp9"].first { avcodec_find_encoder_by_name($0) != nil }

    /// The codec libavcodec's encoder `name` writes ("libx264": "h264", "libvorbis": "vorbis"); the
    /// name itself when this FFmpeg has no such encoder.
    public static func codecName(ofEncoder name: String) -> String {
        guard let codec = avcodec_find_encoder_by_name(name) else { return name }
        return String(cString: avcodec_get_name(codec.pointee.id))
    }

    /// Whether libavcodec's encoder `name` takes pictures of `format`.
    public static func encoder(_ name: String, takes format: PixelFormat) -> Bool {
        guard let codec = avcodec_find_encoder_by_name(name), var formats = codec.pointee.pix_fmts else {
            return false
        }
        while formats.pointee != AV_PIX_FMT_NONE {
            if formats.pointee == format.av { return true }
            formats += 1
        }
        return false
    }

    /// Opens `codec` (from `deliveryCodec`) for `width`x`height` pictures of `format` at `rate`,
    /// timestamps in `timeBase`, a keyframe every `keyframeInterval` frames, the colour description
    /// of `signal`. Constant quality (CRF 18, visually lossless for delivery; libvpx-vp9 CRF 24), no
    /// B-frames and no look-ahead: each picture comes out as its packet, decode order = presentation.
    public static func delivery(
        codec: String, width: Int, height: Int, format: PixelFormat, rate: Rational, timeBase: Rational,
        keyframeInterval: Int, signal: StreamPresentation
    ) throws(AVFailure) -> Encoder {
        let options: [String: String] =
            switch codec {
            case "libx265":
                ["preset": "veryfast", "tune": "zerolatency", "crf": "18", "x265-params": "log-level=error"]
            // Constant quality (with no bitrate cap: `bit_rate` 0 below), real-time speed, no
            // look-ahead, so no hidden alt-ref frames hold pictures back.
            case "libvpx-vp9":
                ["deadline": "realtime", "cpu-used": "8", "crf": "24", "row-mt": "1", "lag-in-frames": "0"]
            default: ["preset": "veryfast", "tune": "zerolatency", "crf": "18"]
            }
        return try Encoder(name: codec, options: options) { ctx in
            ctx.pointee.width = Int32(width)
            ctx.pointee.height = Int32(height)
            ctx.pointee.pix_fmt = format.av
            ctx.pointee.time_base = AVRational(num: Int32(timeBase.numerator), den: Int32(timeBase.denominator))
            ctx.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
            ctx.pointee.gop_size = Int32(keyframeInterval)
            ctx.pointee.max_b_frames = 0
            ctx.pointee.bit_rate = 0
            ctx.pointee.color_primaries = AVColorPrimaries(UInt32(signal.colorPrimaries))
            ctx.pointee.color_trc = AVColorTransferCharacteristic(UInt32(signal.colorTransfer))
            ctx.pointee.colorspace = AVColorSpace(UInt32(signal.colorSpace))
            ctx.pointee.color_range = AVColorRange(UInt32(signal.colorRange))
            ctx.pointee.chroma_sample_location = AVChromaLocation(UInt32(signal.chromaLocation))
            if let aspect = signal.sampleAspectRatio {
                ctx.pointee.sample_aspect_ratio = AVRational(
                    num: Int32(aspect.numerator), den: Int32(aspect.denominator))
            }
            ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
    }

    /// The pixel format the encoder was opened with.
    public var pixelFormat: PixelFormat { PixelFormat(context.pointee.pix_fmt) }
}
