import HFRMedia

/// A whole re-encode written with a delivery encoder through libavcodec (libx264, libx265,
/// SVT-AV1/libaom, libvpx-vp9, ProRes, FFV1) rather than hfr's layered OpenH264: by default in the
/// source's codec family (H.264 for codecs hfr does not encode), its bit depth, chroma and colour
/// (`--codec`, `--quality` choose otherwise).
public struct DeliveryEncoding: Sendable, Equatable {
    /// libavcodec's encoder name ("libx264", "libx265", "libvpx-vp9").
    public let codec: String
    /// The pictures it is given: the decoder's own format where the encoder takes it, else the
    /// nearest one it takes.
    public let format: PixelFormat
    /// How it spends bits; nil where the encoder has its own rule (ProRes, FFV1).
    public let quality: VideoQuality?
    /// What the plan says of it where the pictures change format or exceed 8-bit 4:2:0.
    public let note: String?

    /// What a re-encode is asked for (`--codec`, `--quality`; nil: the defaults).
    public struct Request: Sendable, Equatable {
        public var codec: OutputCodec?
        public var quality: VideoQuality?

        public init(codec: OutputCodec? = nil, quality: VideoQuality? = nil) {
            self.codec = codec
            self.quality = quality
        }

        /// Refuses, before any work, a `--codec` that `output`'s container cannot hold or that this
        /// FFmpeg cannot encode, and a `--quality` its encoders cannot take: one sentence each, the
        /// same from the command line, a batch or the pipeline.
        public func check(output: String) throws(ExportFailure) {
            guard let codec else { return }
            if let clash = codec.clash(with: Container(output: output), output: output) { throw .usage(clash) }
            if codec != .openh264, codec.encoders(quality: nil).isEmpty {
                throw .usage("--codec \(codec.rawValue): this FFmpeg has no \(codec.displayName) encoder")
            }
            if let quality, let clash = codec.qualityClash(quality) { throw .usage(clash) }
        }
    }

    /// The delivery encoder of a whole re-encode of `video` into `output`, or nil for hfr's layered
    /// OpenH264 (`--codec openh264`). Throws a usage failure when the requested codec or quality
    /// cannot be written there (`Request.check`); without `--codec`, the source's family where the
    /// container stores it, else the first that it stores, must take `--quality`.
    static func choose(
        video: StreamInfo, output: String, makesPictures: Bool, request: Request
    ) throws(ExportFailure) -> DeliveryEncoding? {
        try request.check(output: output)
        if request.codec == .openh264 { return nil }
        let container = Container(output: output)
        let source = video.pixelFormat.flatMap(PixelFormat.init(name:)) ?? .yuv420p
        func stores(_ encoder: String) -> Bool {
            Encoder.codecID(ofEncoder: encoder).map { container.holds(codecID: $0) } ?? false
        }
        let families: [OutputCodec]
        if let codec = request.codec {
            families = [codec]
        } else {
            // The source's family where the container stores it, else what it stores.
            let own = OutputCodec.family(ofSource: video.codecName)
            families = ([own, .h264, .hevc, .vp9, .av1]).filter { family in
                (request.quality.map { family.refusal(of: $0) == nil } ?? true)
                    && family.encoders(quality: nil).contains { stores($0) }
            }
            if let quality = request.quality, let first = families.first, let clash = first.qualityClash(quality) {
                throw .usage(clash)
            }
        }
        // The first encoder of the first family that takes the pictures as they are; else the
        // first family's first encoder, in the nearest format it takes.
        let candidates = families.flatMap { f in
            f.encoders(quality: request.quality ?? f.defaultQuality).filter { stores($0) }.map { (f, $0) }
        }
        guard
            let (family, encoder) = candidates.first(where: { Encoder.encoder($0.1, takes: source) })
                ?? candidates.first,
            let format = Encoder.bestFormat(of: encoder, for: source)
        else {
            throw .usage("no encoder here writes video \(container.displayName) can store (\(output))")
        }
        let quality = request.quality ?? family.defaultQuality
        let with = "re-encoded with \(encoder)" + (quality.map { " (\($0))" } ?? "")
        let note: String? =
            format != source
            ? "\(with): its \(source.name) pictures are written as \(format.name)"
            : source.exceedsI420
                ? "\(with) to keep its \(source.name) pictures"
                    + (makesPictures ? " (new ones are made from 8-bit 4:2:0 copies)" : "") : nil
        return DeliveryEncoding(codec: encoder, format: format, quality: quality, note: note)
    }

    /// Why the encoder cannot take `width`x`height` pictures of its format, to follow "WxH "; nil
    /// when it can. Subsampled chroma needs sides the subsampling divides (x264, x265, VP9 and AV1
    /// refuse odd sides of 4:2:0); the encoders' own size limits are far above hfr's inputs'.
    func sizeProblem(width: Int, height: Int) -> String? {
        let (w, h) = format.chromaSubsampling
        guard width % (1 << w) != 0 || height % (1 << h) != 0 else { return nil }
        return "has an odd side: \(codec) writes \(format.name), whose chroma needs even sides"
    }

    /// What the plan says of a re-encode with hfr's layered OpenH264 of pictures beyond 8-bit 4:2:0.
    static func layeredNote(video: StreamInfo) -> String? {
        guard let format = video.pixelFormat.flatMap(PixelFormat.init(name:)), format.exceedsI420 else { return nil }
        return "OpenH264 writes 8-bit 4:2:0: its \(format.name) pictures lose bit depth or chroma"
    }
}

extension ExportPlan {
    /// The encoder of re-encoded video ("libx264", "openh264" — also a splice's stretches') and its
    /// quality ("crf:18"; nil where the encoder has its own rule); both nil when copied.
    var encoderAndQuality: (encoder: String?, quality: String?) {
        guard layers == nil || isSpliced else { return (nil, nil) }
        let delivery = isSpliced ? nil : self.delivery
        return (
            delivery?.codec ?? "openh264",
            delivery.map { $0.quality?.description } ?? layeredBitrate.map { "bitrate:\($0)" }
        )
    }
}
