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

    /// The format encoder `name` writes pictures of `format` in: `format` itself when it takes it,
    /// else the one of its formats that loses least (libavcodec's rule: depth, then chroma); nil for
    /// an unknown encoder.
    public static func bestFormat(of name: String, for format: PixelFormat) -> PixelFormat? {
        guard let codec = avcodec_find_encoder_by_name(name) else { return nil }
        guard codec.pointee.pix_fmts != nil else { return format }
        if encoder(name, takes: format) { return format }
        var loss: Int32 = 0
        let best = avcodec_find_best_pix_fmt_of_list(codec.pointee.pix_fmts, format.av, 0, &loss)
        return best == AV_PIX_FMT_NONE ? nil : PixelFormat(best)
    }

    /// Opens `codec` (libx264, libx265, libsvtav1, libaom-av1, libvpx-vp9, prores_ks, ffv1) for
    /// `width`x`height` pictures of `format` at `rate`, timestamps in `timeBase`, a keyframe every
    /// `keyframeInterval` frames, the colour description of `signal`, spending bits as `quality`
    /// says. Offline settings with B-frames and look-ahead (slow motion gains most from them), at
    /// the encoders' fast presets (x264/x265 veryfast: on two cores about half the CPU of medium
    /// for a tenth of a dB at the same size): pictures come out later and in decode order, with
    /// their decode times.
    public static func delivery(
        codec: String, width: Int, height: Int, format: PixelFormat, rate: Rational, timeBase: Rational,
        keyframeInterval: Int, signal: StreamPresentation, quality: VideoQuality
    ) throws(AVFailure) -> Encoder {
        let (options, bitRate) = deliveryOptions(codec: codec, format: format, quality: quality)
        return try Encoder(name: codec, options: options) { ctx in
            ctx.pointee.width = Int32(width)
            ctx.pointee.height = Int32(height)
            ctx.pointee.pix_fmt = format.av
            ctx.pointee.time_base = AVRational(num: Int32(timeBase.numerator), den: Int32(timeBase.denominator))
            ctx.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
            ctx.pointee.gop_size = codec == "ffv1" ? 1 : Int32(keyframeInterval)
            ctx.pointee.bit_rate = bitRate
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

    /// The private options and bitrate (0: none) of `codec` for `quality`. Constant quality
    /// leaves the bitrate 0, so no cap; libvpx-vp9 runs at real-time speed (its "good" deadline is
    /// 10× slower) without look-ahead frames (no hidden alt-ref pictures).
    static func deliveryOptions(
        codec: String, format: PixelFormat, quality: VideoQuality
    ) -> (options: [String: String], bitRate: Int64) {
        var options: [String: String] =
            switch codec {
            case "libx264": ["preset": "veryfast"]
            case "libx265": ["preset": "veryfast", "x265-params": "log-level=error"]
            case "libsvtav1": ["preset": "10"]
            case "libaom-av1": ["cpu-used": "8", "row-mt": "1"]
            case "libvpx-vp9": ["deadline": "realtime", "cpu-used": "8", "row-mt": "1", "lag-in-frames": "0"]
            case "prores_ks": ["profile": format == .yuv444p10le || format == .yuva444p10le ? "4" : "3"]
            default: [:]
            }
        switch quality {
        case .crf(let n):
            options["crf"] = String(n)
            return (options, 0)
        case .bitrate(let bits):
            return (options, bits)
        case .lossless:
            switch codec {
            case "libx264": options["qp"] = "0"
            case "libx265": options["x265-params"] = "log-level=error:lossless=1"
            case "libaom-av1": options["aom-params"] = "lossless=1"
            case "libvpx-vp9": options["lossless"] = "1"
            default: break
            }
            return (options, 0)
        }
    }

    /// Gives `frame` the colour description the encoder was opened with: encoders that write it per
    /// picture (ProRes' frame header) read it from the frame, and a converted or made picture has
    /// none of its own.
    public func describeColour(of frame: Frame) {
        frame.pointer.pointee.color_primaries = context.pointee.color_primaries
        frame.pointer.pointee.color_trc = context.pointee.color_trc
        frame.pointer.pointee.colorspace = context.pointee.colorspace
        frame.pointer.pointee.color_range = context.pointee.color_range
        frame.pointer.pointee.chroma_location = context.pointee.chroma_sample_location
    }

    /// The pixel format the encoder was opened with.
    public var pixelFormat: PixelFormat { PixelFormat(context.pointee.pix_fmt) }
}

extension Encoder {
    /// The codec ID libavcodec's encoder `name` writes (`StreamInfo.codecID`'s kind); nil when this
    /// FFmpeg has no such encoder.
    public static func codecID(ofEncoder name: String) -> UInt32? {
        avcodec_find_encoder_by_name(name).map { $0.pointee.id.rawValue }
    }

    /// Why delivery encoder `name` cannot spend bits as `quality` says, to follow "libx264 ":
    /// beyond its CRF scale (x264 and x265 stop at 51 and would clamp or refuse; FFmpeg 5.1's
    /// SVT-AV1 reads crf 0 as unset), or no lossless mode (SVT-AV1). nil when it can.
    public static func refusal(of quality: VideoQuality, by name: String) -> String? {
        let scales: [String: ClosedRange<Int>] = [
            "libx264": 0...51, "libx265": 0...51, "libvpx-vp9": 0...63, "libaom-av1": 0...63, "libsvtav1": 1...63,
        ]
        switch quality {
        case .crf(let n):
            guard let scale = scales[name], !scale.contains(n) else { return nil }
            return "takes crf:\(scale.lowerBound) to crf:\(scale.upperBound)"
        case .lossless:
            return name == "libsvtav1" ? "has no lossless mode" : nil
        case .bitrate:
            return nil
        }
    }

    /// Whether this FFmpeg has encoder `name`.
    public static func exists(_ name: String) -> Bool { avcodec_find_encoder_by_name(name) != nil }
}
