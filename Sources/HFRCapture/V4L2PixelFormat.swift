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

    /// `--pixel-format`: a FourCC (`NV12`, `MJPG`) or FFmpeg's name for the layout (`nv12`,
    /// `yuyv422`, `yuv420p`, `mjpeg`).
    public init?(name: String) {
        if name == "mjpeg" {
            self.init("MJPG")
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
        if let raw = V4L2PixelFormat.rawFormats[fourCC] { return .raw(raw) }
        return fourCC == "MJPG" || fourCC == "JPEG" ? .jpeg : .unsupported
    }

    /// Preference for recording, lower first: 4:2:0 (AVFoundation's choice), packed 4:2:2, MJPEG,
    /// anything else hfr converts; nil when hfr cannot use it. Among 4:2:0 layouts planar YU12
    /// comes first because it is what the encoder takes (no conversion), then bi-planar NV12.
    public var preferenceRank: Int? {
        switch fourCC {
        case "YU12": return 0
        case "NV12", "NV21": return 1
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
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
