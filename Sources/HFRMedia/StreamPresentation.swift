import CFFmpeg

/// How a video stream is to be shown, apart from its pictures: the display matrix (rotation, flip),
/// the colour description, the sample aspect ratio and HDR side data (mastering display, content
/// light level). Read from an input stream and applied to an output stream, so an export keeps
/// them whether it copies the packets or re-encodes them.
public struct StreamPresentation: Sendable, Equatable {
    /// One piece of stream side data: its `AVPacketSideDataType` and its bytes, as FFmpeg keeps them.
    public struct SideData: Sendable, Equatable {
        public let type: UInt32
        public let bytes: [UInt8]
    }

    /// H.273 code points (2 = unspecified), as in `AVCodecParameters`.
    public var colorPrimaries: Int32 = 2
    public var colorTransfer: Int32 = 2
    public var colorSpace: Int32 = 2
    /// 0 unspecified, 1 limited ("tv"), 2 full ("pc").
    public var colorRange: Int32 = 0
    public var chromaLocation: Int32 = 0
    /// Nil when unknown.
    public var sampleAspectRatio: Rational?
    public var sideData: [SideData] = []

    /// The display matrix's rotation in degrees, as ffprobe reports it (`av_display_rotation_get`);
    /// nil without one.
    public var rotation: Double? {
        guard let matrix = sideData.first(where: { $0.type == AV_PKT_DATA_DISPLAYMATRIX.rawValue }),
            matrix.bytes.count >= 36
        else { return nil }
        let angle = matrix.bytes.withUnsafeBytes { raw in
            av_display_rotation_get(raw.baseAddress!.assumingMemoryBound(to: Int32.self))
        }
        return angle.isNaN ? nil : angle
    }

    /// The side data an export keeps: how to show the pictures, not how the bitstream was coded (a
    /// Dolby Vision configuration or CPB properties would be wrong for a re-encoded stream).
    static let kept: Set<UInt32> = [
        AV_PKT_DATA_DISPLAYMATRIX.rawValue, AV_PKT_DATA_MASTERING_DISPLAY_METADATA.rawValue,
        AV_PKT_DATA_CONTENT_LIGHT_LEVEL.rawValue, AV_PKT_DATA_STEREO3D.rawValue, AV_PKT_DATA_SPHERICAL.rawValue,
        AV_PKT_DATA_ICC_PROFILE.rawValue,
    ]

    public init() {}

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        let par = stream.pointee.codecpar.pointee
        colorPrimaries = Int32(par.color_primaries.rawValue)
        colorTransfer = Int32(par.color_trc.rawValue)
        colorSpace = Int32(par.color_space.rawValue)
        colorRange = Int32(par.color_range.rawValue)
        chromaLocation = Int32(par.chroma_location.rawValue)
        // The container's ratio (MP4 `pasp`) wins over the bitstream's, as in ffprobe.
        let sar =
            stream.pointee.sample_aspect_ratio.num > 0 ? stream.pointee.sample_aspect_ratio : par.sample_aspect_ratio
        sampleAspectRatio = Rational(sar).flatMap { $0.numerator > 0 ? $0 : nil }
        let count = Int(stream.pointee.nb_side_data)
        for i in 0..<count {
            let entry = stream.pointee.side_data[i]
            guard StreamPresentation.kept.contains(entry.type.rawValue), let data = entry.data else { continue }
            sideData.append(
                SideData(type: entry.type.rawValue, bytes: Array(UnsafeBufferPointer(start: data, count: entry.size))))
        }
    }

    /// FFmpeg's names of the colour description ("bt2020", "arib-std-b67", "bt2020nc", "tv"); nil
    /// for each part left unspecified (matrix 0 is RGB, a real value; primaries and transfer 0 are
    /// reserved).
    public var colorNames: (primaries: String?, transfer: String?, space: String?, range: String?) {
        func name(_ s: UnsafePointer<CChar>?, _ value: Int32, unset: Set<Int32>) -> String? {
            unset.contains(value) ? nil : s.map { String(cString: $0) }
        }
        let primaries = av_color_primaries_name(AVColorPrimaries(UInt32(colorPrimaries)))
        let transfer = av_color_transfer_name(AVColorTransferCharacteristic(UInt32(colorTransfer)))
        return (
            name(primaries, colorPrimaries, unset: [0, 2]), name(transfer, colorTransfer, unset: [0, 2]),
            name(av_color_space_name(AVColorSpace(UInt32(colorSpace))), colorSpace, unset: [2]),
            name(av_color_range_name(AVColorRange(UInt32(colorRange))), colorRange, unset: [0])
        )
    }
}

extension Demuxer {
    /// Stream `index`'s presentation data (colour, aspect ratio, display matrix, HDR side data).
    public func presentation(ofStream index: Int) -> StreamPresentation {
        StreamPresentation(context.pointee.streams[index]!)
    }
}

extension Muxer {
    /// Gives output stream `index` the presentation data `p`: the colour description and sample
    /// aspect ratio in its codec parameters (MP4/MOV write them as `colr` and `pasp`, Matroska as
    /// Colour elements) and the side data on the stream. Call before `writeHeader`.
    public func apply(_ p: StreamPresentation, toStream index: Int) throws(AVFailure) {
        let stream = context.pointee.streams[index]!
        let par = stream.pointee.codecpar!
        par.pointee.color_primaries = AVColorPrimaries(UInt32(p.colorPrimaries))
        par.pointee.color_trc = AVColorTransferCharacteristic(UInt32(p.colorTransfer))
        par.pointee.color_space = AVColorSpace(UInt32(p.colorSpace))
        par.pointee.color_range = AVColorRange(UInt32(p.colorRange))
        if p.chromaLocation != 0 { par.pointee.chroma_location = AVChromaLocation(UInt32(p.chromaLocation)) }
        if let sar = p.sampleAspectRatio?.avRational {
            par.pointee.sample_aspect_ratio = sar
            stream.pointee.sample_aspect_ratio = sar
        }
        for entry in p.sideData {
            guard let data = av_stream_new_side_data(stream, AVPacketSideDataType(entry.type), entry.bytes.count)
            else {
                throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_stream_new_side_data", stage: .writingOutput)
            }
            data.update(from: entry.bytes, count: entry.bytes.count)
        }
    }
}
