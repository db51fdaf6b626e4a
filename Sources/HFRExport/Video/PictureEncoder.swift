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
    var encoder: H264Encoder
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

/// A delivery encoder through libavcodec (`Encoder.delivery`, chosen by `DeliveryEncoding`): takes
/// the decoder's pictures and the interpolator's 8-bit 4:2:0 ones, each converted to its format
/// where it differs.
final class DeliveryPictureEncoder: PictureEncoder {
    let encoder: Encoder
    var takesSourcePictures: Bool { true }
    /// Conversions of decoded pictures and of made (I420) ones, each with its own scaler.
    private var sourceConverter: PictureConverter
    private var madeConverter: PictureConverter

    init(_ delivery: DeliveryEncoding, info: StreamInfo, rate: Rational, timeBase: Rational) throws {
        encoder = try Encoder.delivery(
            codec: delivery.codec, width: info.width, height: info.height, format: delivery.format, rate: rate,
            timeBase: timeBase, keyframeInterval: H264Encoder.Settings.keyframeInterval(rate: rate, temporalLayers: 1),
            signal: info.presentation, quality: delivery.quality ?? .lossless)
        sourceConverter = try PictureConverter(width: info.width, height: info.height, format: delivery.format)
        madeConverter = try PictureConverter(width: info.width, height: info.height, format: delivery.format)
    }

    func streamParameters(width: Int, height: Int) throws -> CodecParameters { try encoder.parameters() }

    func encode(_ picture: Frame, pts: Int64, into packet: Packet, emit: (Int) throws -> Void) throws {
        let converted =
            picture.pixelFormat?.isI420 == true && sourceConverter.format != picture.pixelFormat
            ? try madeConverter.converted(picture) : try sourceConverter.converted(picture)
        converted.pts = pts
        encoder.describeColour(of: converted)
        _ = try encoder.send(converted)
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
