import CFFmpeg

/// How a picture's samples carry brightness, for code that scales it (flicker): the luma plane (or,
/// for RGB and grey pictures, every plane), the planes of colour difference around their middle
/// value, and the sample size. Only formats whose samples are independent bytes or words
/// (`PixelFormat.sampleLayout`), one component per plane or interleaved chroma pairs.
public struct SampleLevels: Sendable, Equatable {
    /// 1 for 8-bit samples, 2 for 9–16-bit little-endian words.
    public let bytesPerSample: Int
    /// The largest sample value (with any shift: P010 keeps 10 bits in the high ones).
    public let maximum: Int
    /// The value of no colour difference (128 for 8-bit chroma).
    public let middle: Int
    /// Planes whose samples are brightness, each with its size in samples: luma, or R, G, B.
    public let brightness: [Plane]
    /// Planes of colour difference (Cb, Cr, or both interleaved); empty for RGB and grey.
    public let chroma: [Plane]

    /// A plane's index in the frame, samples per row and rows.
    public struct Plane: Sendable, Equatable {
        public let index: Int
        public let samplesPerRow: Int
        public let rows: Int
    }

    /// The levels of `frame`'s format and size; nil as `init(format:width:height:)`.
    public static func of(_ frame: Frame) -> SampleLevels? {
        frame.pixelFormat.flatMap { SampleLevels(format: $0, width: frame.width, height: frame.height) }
    }

    /// Nil for formats whose brightness is not in planes of its own (packed YUYV, bit-packed RGB,
    /// palettes): convert those to I420 first.
    public init?(format: PixelFormat, width: Int, height: Int) {
        guard let layout = format.sampleLayout(width: width, height: height),
            let d = av_pix_fmt_desc_get(format.av)?.pointee
        else { return nil }
        let comps = withUnsafeBytes(of: d.comp) {
            Array($0.bindMemory(to: AVComponentDescriptor.self).prefix(Int(d.nb_components)))
        }
        let isRGB = d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let isPlanar = d.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 || comps.count == 1
        let hasAlpha = d.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        // Packed YUV (several components in one plane) and packed RGB with alpha are not taken.
        guard let luma = comps.first, isPlanar || (isRGB && !hasAlpha) else { return nil }
        // Packed RGB with a padding byte (RGB0, BGR0): the padding is no brightness.
        if !isPlanar, Int(luma.step) != comps.count * layout.bytesPerSample { return nil }
        let planes = layout.planes.enumerated().map { i, p in
            Plane(index: i, samplesPerRow: p.rowBytes / layout.bytesPerSample, rows: p.rows)
        }
        let alphaPlane = hasAlpha ? Int(comps[comps.count - 1].plane) : nil
        let colourPlanes = planes.filter { $0.index != alphaPlane }
        bytesPerSample = layout.bytesPerSample
        maximum = ((1 << Int(luma.depth)) - 1) << Int(luma.shift)
        middle = (1 << Int(luma.depth - 1)) << Int(luma.shift)
        brightness = colourPlanes.filter { isRGB || $0.index == Int(luma.plane) }
        chroma = isRGB ? [] : colourPlanes.filter { $0.index != Int(luma.plane) }
    }
}
