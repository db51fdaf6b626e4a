import HFRMedia

/// What a re-encode writes its pictures with: hfr's layered OpenH264 (8-bit 4:2:0, temporal
/// layers, as `hfr record` writes) or, for pictures that would lose bit depth or chroma there and
/// for WebM, a delivery encoder through libavcodec (libx264 High 10 / 4:2:2 / 4:4:4, libx265
/// 12-bit, libvpx-vp9) that takes the decoded pictures as they are or in 8-bit 4:2:0.
protocol PictureEncoder: AnyObject {
    /// Whether it takes the decoder's pictures as they are (else I420 conversions).
    var takesSourcePictures: Bool { get }
    /// The output stream's codec parameters.
    func streamParameters(width: Int, height: Int) throws -> CodecParameters
    /// Encodes `picture` at `pts` (output time base) into `packet`, calling `emit` with the
    /// temporal id of each packet made (0 without layers).
    func encode(_ picture: Frame, pts: Int64, into packet: Packet, emit: (Int) throws -> Void) throws
    /// Drains what the encoder still holds.
    func flush(into packet: Packet, emit: (Int) throws -> Void) throws
}

/// hfr's layered OpenH264 encoder: one packet per picture, at once.
final class LayeredPictureEncoder: PictureEncoder {
    let encoder: H264Encoder
    let timeBase: Rational

    init(_ settings: H264Encoder.Settings, timeBase: Rational) throws {
        encoder = try H264Encoder(settings)
        self.timeBase = timeBase
    }

    var takesSourcePictures: Bool { false }

    func streamParameters(width: Int, height: Int) throws -> CodecParameters {
        try CodecParameters.h264(width: width, height: height, extradata: encoder.parameterSets())
    }

    func encode(_ picture: Frame, pts: Int64, into packet: Packet, emit: (Int) throws -> Void) throws {
        try emit(encoder.encode(picture, pts: pts, timeBase: timeBase, into: packet).temporalID)
    }

    func flush(into packet: Packet, emit: (Int) throws -> Void) throws {}
}

/// libx264/libx265/libvpx-vp9 through libavcodec (`Encoder.delivery`, chosen by `DeliveryEncoding`).
final class DeliveryPictureEncoder: PictureEncoder {
    let encoder: Encoder
    let takesSourcePictures: Bool

    init(_ delivery: DeliveryEncoding, info: StreamInfo, rate: Rational, timeBase: Rational) throws {
        takesSourcePictures = delivery.takesSourcePictures
        encoder = try Encoder.delivery(
            codec: delivery.codec, width: info.width, height: info.height, format: delivery.format, rate: rate,
            timeBase: timeBase, keyframeInterval: H264Encoder.Settings.keyframeInterval(rate: rate, temporalLayers: 1),
            signal: info.presentation)
    }

    func streamParameters(width: Int, height: Int) throws -> CodecParameters { try encoder.parameters() }

    func encode(_ picture: Frame, pts: Int64, into packet: Packet, emit: (Int) throws -> Void) throws {
        picture.pts = pts
        _ = try encoder.send(picture)
        try drain(packet, emit)
    }

    func flush(into packet: Packet, emit: (Int) throws -> Void) throws {
        _ = try encoder.send(nil)
        try drain(packet, emit)
    }

    private func drain(_ packet: Packet, _ emit: (Int) throws -> Void) throws {
        while case .value = try encoder.receive(into: packet) { try emit(0) }
    }
}
