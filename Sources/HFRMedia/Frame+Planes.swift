import CFFmpeg

extension Frame {
    /// The bytes each plane of a picture takes when plane `i` has the stride `bytesPerLine[i]` (a
    /// multi-planar capture's layout, one buffer per plane). Throws when the strides do not fit
    /// the format: a count other than its planes', or a stride below a row's width.
    public static func planeSizes(width: Int, height: Int, format: PixelFormat, bytesPerLine: [Int]) throws(AVFailure)
        -> [Int]
    {
        let count = Int(av_pix_fmt_count_planes(format.av))
        var minimal = [Int32](repeating: 0, count: 4)
        try check(av_image_fill_linesizes(&minimal, format.av, Int32(width)), "av_image_fill_linesizes")
        let fits = count == bytesPerLine.count && zip(bytesPerLine, minimal).allSatisfy { $0 >= Int($1) }
        guard fits else {
            throw AVFailure(
                code: hfr_averror(EINVAL),
                operation: "\(format.name) planes with strides \(bytesPerLine) at width \(width)")
        }
        var lines = [Int](repeating: 0, count: 4)
        for (i, stride) in bytesPerLine.enumerated() { lines[i] = stride }
        var sizes = [Int](repeating: 0, count: 4)
        try check(av_image_fill_plane_sizes(&sizes, format.av, Int32(height), lines), "av_image_fill_plane_sizes")
        return Array(sizes.prefix(count))
    }

    /// A frame whose plane `i` points into `planes[i]` with the stride `bytesPerLine[i]`: no copy,
    /// valid only while the buffers are. Nil when a buffer holds less than its plane.
    public static func view(
        ofPlanes planes: [UnsafeRawBufferPointer], width: Int, height: Int, format: PixelFormat, bytesPerLine: [Int]
    ) throws(AVFailure) -> Frame? {
        let sizes = try planeSizes(width: width, height: height, format: format, bytesPerLine: bytesPerLine)
        guard planes.count == sizes.count, zip(planes, sizes).allSatisfy({ $0.count >= $1 }) else { return nil }
        let pointers = planes.map {
            UnsafeMutablePointer(mutating: $0.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        return try view(
            planes: pointers, lines: bytesPerLine.map { Int32($0) }, width: width, height: height, format: format)
    }
}
