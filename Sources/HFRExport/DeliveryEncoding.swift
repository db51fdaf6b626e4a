import HFRMedia

/// A whole re-encode written with a delivery encoder through libavcodec rather than hfr's layered
/// OpenH264 (8-bit 4:2:0 H.264): for pictures OpenH264 would reduce (10-bit, 4:2:2, 4:4:4), and for
/// a container that does not store H.264 (WebM: VP9).
public struct DeliveryEncoding: Sendable, Equatable {
    /// libavcodec's encoder name ("libx264", "libx265", "libvpx-vp9").
    public let codec: String
    /// The pictures it is given: the decoder's own format, or 8-bit 4:2:0.
    public let format: PixelFormat
    /// Whether it takes the decoder's pictures as they are (else converted to I420).
    public let takesSourcePictures: Bool
    /// Why this encoder, for the plan's notes.
    public let note: String

    /// The delivery encoder of a whole re-encode of `video` into `container` (libavformat's name),
    /// or nil for hfr's layered OpenH264. New pictures (`makesPictures`) are 8-bit 4:2:0.
    static func choose(video: StreamInfo, container: String, makesPictures: Bool) -> DeliveryEncoding? {
        let source = video.pixelFormat.flatMap(PixelFormat.init(name:))
        let rich = source.map { $0.exceedsI420 && !makesPictures } ?? false
        if !Muxer.formatAcceptsH264(container) {
            guard let codec = Encoder.webmCodec else { return nil }
            let keep = rich && Encoder.encoder(codec, takes: source!)
            let why = "\(container == "webm" ? "WebM" : container) stores VP8, VP9 or AV1, not H.264"
            return DeliveryEncoding(
                codec: codec, format: keep ? source! : .yuv420p, takesSourcePictures: keep || source?.isI420 == true,
                note: "re-encoded with \(codec) (\(why))" + (keep ? ", keeping its \(source!.name) pictures" : ""))
        }
        guard rich, let format = source, let codec = Encoder.deliveryCodec(for: format) else { return nil }
        return DeliveryEncoding(
            codec: codec, format: format, takesSourcePictures: true,
            note: "re-encoded with \(codec) to keep its \(format.name) pictures "
                + "(hfr's layered OpenH264 writes 8-bit 4:2:0 only): no temporal layers")
    }

    /// What the plan says of a re-encode of pictures beyond 8-bit 4:2:0, or into a container
    /// without H.264: the delivery encoder and why, or that 8 bits are written.
    static func note(video: StreamInfo, delivery: DeliveryEncoding?, makesPictures: Bool) -> String? {
        let source = video.pixelFormat.flatMap(PixelFormat.init(name:))
        if let delivery {
            guard let source, source.exceedsI420, delivery.format != source else { return delivery.note }
        }
        guard let format = source, format.exceedsI420 else { return nil }
        let why = makesPictures ? "new pictures are made in 8-bit 4:2:0" : "no encoder here takes \(format.name)"
        let lost = "the re-encode writes 8-bit 4:2:0 (\(why)): its \(format.name) pictures lose bit depth or chroma"
        return delivery.map { "\($0.note); \(lost)" } ?? lost
    }
}
