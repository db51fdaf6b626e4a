import CFFmpeg

/// A libav pixel format by value (`AVPixelFormat` underneath), so modules above `HFRMedia` can name
/// picture layouts without importing FFmpeg.
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// The `AVPixelFormat` value.
    let rawValue: Int32

    init(_ format: AVPixelFormat) { rawValue = format.rawValue }
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The format libav knows by `name` ("yuv420p", "nv12", "yuyv422"); nil for unknown names.
    public init?(name: String) {
        let format = av_get_pix_fmt(name)
        guard format != AV_PIX_FMT_NONE else { return nil }
        self.init(format)
    }

    var av: AVPixelFormat { AVPixelFormat(rawValue) }

    /// libav's name, e.g. "yuv420p".
    public var name: String { av_get_pix_fmt_name(av).map { String(cString: $0) } ?? "none" }

    public var description: String { name }

    /// Planar 4:2:0, the layout the H.264 encoder reads (full-range `yuvj420p` has the same layout).
    public var isI420: Bool { self == .yuv420p || self == .yuvj420p }

    public static let yuv420p = PixelFormat(AV_PIX_FMT_YUV420P)
    public static let yuvj420p = PixelFormat(AV_PIX_FMT_YUVJ420P)
    public static let nv12 = PixelFormat(AV_PIX_FMT_NV12)
    public static let nv21 = PixelFormat(AV_PIX_FMT_NV21)
    public static let yuyv422 = PixelFormat(AV_PIX_FMT_YUYV422)
    public static let uyvy422 = PixelFormat(AV_PIX_FMT_UYVY422)
    public static let yvyu422 = PixelFormat(AV_PIX_FMT_YVYU422)
    public static let yuv422p = PixelFormat(AV_PIX_FMT_YUV422P)
    public static let yuv444p = PixelFormat(AV_PIX_FMT_YUV444P)
    public static let yuv411p = PixelFormat(AV_PIX_FMT_YUV411P)
    public static let nv16 = PixelFormat(AV_PIX_FMT_NV16)
    public static let nv24 = PixelFormat(AV_PIX_FMT_NV24)
    public static let nv42 = PixelFormat(AV_PIX_FMT_NV42)
    public static let rgb24 = PixelFormat(AV_PIX_FMT_RGB24)
    public static let bgr24 = PixelFormat(AV_PIX_FMT_BGR24)
    public static let rgb565le = PixelFormat(AV_PIX_FMT_RGB565LE)
    public static let bgra = PixelFormat(AV_PIX_FMT_BGRA)
    public static let bgr0 = PixelFormat(AV_PIX_FMT_BGR0)
    public static let rgba = PixelFormat(AV_PIX_FMT_RGBA)
    public static let rgb0 = PixelFormat(AV_PIX_FMT_RGB0)
    public static let gray8 = PixelFormat(AV_PIX_FMT_GRAY8)
    public static let gray16le = PixelFormat(AV_PIX_FMT_GRAY16LE)
    public static let yuv420p10le = PixelFormat(AV_PIX_FMT_YUV420P10LE)
    public static let yuv422p10le = PixelFormat(AV_PIX_FMT_YUV422P10LE)
    public static let yuv444p10le = PixelFormat(AV_PIX_FMT_YUV444P10LE)
    public static let yuva444p10le = PixelFormat(AV_PIX_FMT_YUVA444P10LE)
}
