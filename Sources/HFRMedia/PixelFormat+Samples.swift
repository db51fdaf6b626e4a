import CFFmpeg

extension PixelFormat {
    /// Where a picture of this format keeps independent samples of one size: bytes per sample (1
    /// for 8-bit components, 2 for 9–16-bit little-endian ones) and each plane's row width in
    /// bytes and rows. Any arithmetic done sample by sample (a weighted average) is then done on
    /// bytes or words alike, planar, semi-planar or packed. Nil for bit-packed, palette,
    /// big-endian, hardware and mixed-depth formats (RGB565, P010's shifted samples qualify as
    /// 16-bit words, RGB565 does not).
    public func sampleLayout(width: Int, height: Int) -> (bytesPerSample: Int, planes: [(rowBytes: Int, rows: Int)])? {
        guard let d = av_pix_fmt_desc_get(av)?.pointee else { return nil }
        let excluded = UInt64(
            AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_HWACCEL)
        guard d.flags & excluded == 0, d.nb_components > 0 else { return nil }
        let comps = withUnsafeBytes(of: d.comp) {
            Array($0.bindMemory(to: AVComponentDescriptor.self).prefix(Int(d.nb_components)))
        }
        let bytes: Int
        if comps.allSatisfy({ $0.depth == 8 && $0.shift == 0 }) {
            bytes = 1
        } else if comps.allSatisfy({ $0.depth > 8 && $0.depth + $0.shift <= 16 && $0.step % 2 == 0 }) {
            bytes = 2
        } else {
            return nil
        }
        var lines = [Int32](repeating: 0, count: 4)
        guard av_image_fill_linesizes(&lines, av, Int32(width)) >= 0 else { return nil }
        var sizes = [Int](repeating: 0, count: 4)
        guard av_image_fill_plane_sizes(&sizes, av, Int32(height), lines.map { Int($0) }) >= 0 else { return nil }
        let count = Int(av_pix_fmt_count_planes(av))
        let planes = (0..<count).map { i in (rowBytes: Int(lines[i]), rows: lines[i] > 0 ? sizes[i] / Int(lines[i]) : 0)
        }
        return (bytes, planes)
    }

    /// log2 of the chroma planes' horizontal and vertical subsampling (4:2:0: 1, 1; 4:4:4: 0, 0).
    public var chromaSubsampling: (width: Int, height: Int) {
        guard let d = av_pix_fmt_desc_get(av)?.pointee else { return (0, 0) }
        return (Int(d.log2_chroma_w), Int(d.log2_chroma_h))
    }
}
