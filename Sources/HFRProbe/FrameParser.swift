/// Reads each packet's `FrameStructure` for the codecs whose bitstream hfr parses (H.264, HEVC),
/// keeping what one packet passes to the next: an H.264 prefix NAL unit at the end of a packet
/// (it belongs to the next packet's slice) and the highest HEVC temporal id an SPS allows.
public struct FrameParser: Equatable, Sendable {
    public enum Codec: String, Equatable, Sendable {
        case h264, hevc
    }

    public let codec: Codec
    public let packaging: NALPackaging
    private var carriedTemporalID: Int?
    private var maxTemporalID: Int?

    /// A parser for a stream of `codecName` ("h264", "hevc") with `extradata`; nil for other codecs.
    public init?(codecName: String, extradata: [UInt8]) {
        guard let codec = Codec(rawValue: codecName) else { return nil }
        self.codec = codec
        switch codec {
        case .h264:
            packaging = NALPackaging(extradata: extradata)
        case .hevc:
            let packaging = NALPackaging(hevcExtradata: extradata)
            self.packaging = packaging
            var top: Int? = nil
            packaging.forEachHEVCParameterSet(in: extradata) { bytes in
                if let max = HEVCNALUnit(bytes)?.maxTemporalID { top = max }
            }
            maxTemporalID = top
        }
    }

    /// The frame in `data`, the next packet in decode order.
    public mutating func parse(_ data: UnsafeRawBufferPointer) -> FrameStructure {
        switch codec {
        case .h264:
            let s = FrameStructure(h264: data, packaging: packaging, carriedTemporalID: carriedTemporalID)
            // A packet without a slice passes the carried id on.
            if s.sliceCount > 0 { carriedTemporalID = s.trailingTemporalID }
            return s
        case .hevc:
            return FrameStructure(hevc: data, packaging: packaging, maxTemporalID: &maxTemporalID)
        }
    }
}

extension FrameParser.Codec {
    /// "H.264", "HEVC".
    public var displayName: String { self == .h264 ? "H.264" : "HEVC" }
}
