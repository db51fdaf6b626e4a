import HFRMedia

/// A V4L2 pixel format (a FourCC such as `NV12`), what FFmpeg calls it, and how much hfr prefers it.
public struct V4L2PixelFormat: Sendable, Hashable, CustomStringConvertible {
    public let code: UInt32

    public init(code: UInt32) { self.code = code }

    /// `V4L2PixelFormat("NV12")`: the four characters packed little-endian, as `v4l2_fourcc` does;
    /// a `-BE` suffix sets the big-endian flag (`v4l2_fourcc_be`).
    public init(_ fourCC: String) {
        var code: UInt32 = 0
        for (i, byte) in fourCC.utf8.prefix(4).enumerated() { code |= UInt32(byte) << (8 * UInt32(i)) }
        if fourCC.hasSuffix("-BE") { code |= 1 << 31 }
        self.code = code
    }

    /// The four characters, trailing spaces trimmed, `-BE` for big-endian variants, as v4l2-ctl
    /// writes them (`YU12`, `MJPG`, `Y16 ` → `Y16`, `AR15-BE`).
    public var fourCC: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * UInt32($0))) & 0x7F }
        let name = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " ")
        return code & (1 << 31) != 0 ? name + "-BE" : name
    }

    public var description: String { fourCC }

    /// `--pixel-format`: a FourCC (`NV12`, `MJPG`, `NM12`), the kernel's name of a multi-planar
    /// layout (`NV12M`, `YUV420M`) or FFmpeg's name for the layout (`nv12`, `yuyv422`, `yuv420p`, `mjpeg`).
    public init?(name: String) {
        if name == "mjpeg" {
            self.init("MJPG")
            return
        }
        if let fourCC = V4L2PixelFormat.multiplanarNames[name] {
            self.init(fourCC)
            return
        }
        if let (fourCC, _) = V4L2PixelFormat.rawFormats.first(where: { $0.value.name == name }) {
            self.init(fourCC)
            return
        }
        guard (1...4).contains(name.utf8.count), name.uppercased() == name, name.allSatisfy(\.isASCII) else {
            return nil
        }
        self.init(name)
    }

    /// How hfr gets I420 from it: a raw layout swscale converts, a JPEG to decode, or nothing.
    public enum Conversion: Sendable, Equatable {
        case raw(PixelFormat)
        case jpeg
        case unsupported
    }

    public var conversion: Conversion {
        if let raw = V4L2PixelFormat.rawFormats[fourCC] ?? V4L2PixelFormat.separatePlanes[fourCC]?.format {
            return .raw(raw)
        }
        return fourCC == "MJPG" || fourCC == "JPEG" ? .jpeg : .unsupported
    }

    /// Preference for recording, lower first: 4:2:0 (AVFoundation's choice), packed 4:2:2, MJPEG,
    /// anything else hfr converts; nil when hfr cannot use it. Among 4:2:0 layouts planar YU12
    /// comes first because it is what the encoder takes (no conversion), then bi-planar NV12.
    public var preferenceRank: Int? {
        switch fourCC {
        case "YU12", "YM12": return 0
        case "NV12", "NV21", "NM12", "NM21": return 1
        case "YUYV", "UYVY", "YVYU", "VYUY": return 2
        case "MJPG", "JPEG": return 3
        default: return conversion == .unsupported ? nil : 4
        }
    }

    /// V4L2 layouts with an exact FFmpeg equivalent (no padding beyond `bytesperline`).
    static let rawFormats: [String: PixelFormat] = [
        "NV12": .nv12, "NV21": .nv21, "YU12": .yuv420p, "YUYV": .yuyv422, "UYVY": .uyvy422, "YVYU": .yvyu422,
        "422P": .yuv422p, "NV16": .nv16, "NV24": .nv24, "NV42": .nv42, "RGB3": .rgb24, "BGR3": .bgr24,
        "RGBP": .rgb565le, "AR24": .bgra, "XR24": .bgr0, "AB24": .rgba, "XB24": .rgb0, "GREY": .gray8,
        "Y16": .gray16le, "411P": .yuv411p,
    ]

    /// For a layout whose planes come in buffers of their own (multi-planar API only: `NM12` …):
    /// which V4L2 plane (buffer) holds each of FFmpeg's planes; nil for a one-buffer layout.
    public var planeOrder: [Int]? { V4L2PixelFormat.separatePlanes[fourCC]?.planes }

    /// The multi-planar layouts with an FFmpeg equivalent, and where FFmpeg's planes are among
    /// V4L2's (the `YVU` layouts put Cr before Cb). NV61M has no FFmpeg equivalent.
    static let separatePlanes: [String: (format: PixelFormat, planes: [Int])] = [
        "NM12": (.nv12, [0, 1]), "NM21": (.nv21, [0, 1]), "NM16": (.nv16, [0, 1]),
        "YM12": (.yuv420p, [0, 1, 2]), "YM21": (.yuv420p, [0, 2, 1]), "YM16": (.yuv422p, [0, 1, 2]),
        "YM61": (.yuv422p, [0, 2, 1]), "YM24": (.yuv444p, [0, 1, 2]), "YM42": (.yuv444p, [0, 2, 1]),
    ]

    /// The kernel's names of the multi-planar layouts (`V4L2_PIX_FMT_NV12M`) by FourCC.
    static let multiplanarNames: [String: String] = [
        "NV12M": "NM12", "NV21M": "NM21", "NV16M": "NM16", "NV61M": "NM61", "YUV420M": "YM12", "YVU420M": "YM21",
        "YUV422M": "YM16", "YVU422M": "YM61", "YUV444M": "YM24", "YVU444M": "YM42",
    ]
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
