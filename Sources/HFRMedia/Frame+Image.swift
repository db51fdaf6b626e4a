import CFFmpeg

extension Frame {
    /// A picture of the given geometry with its own (aligned) buffers, contents undefined.
    public static func picture(width: Int, height: Int, format: PixelFormat) throws(AVFailure) -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = format.rawValue
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        return frame
    }

    /// A frame whose planes point into `bytes` (a capture buffer, a raw file's frame): no copy, and
    /// valid only while `bytes` is. `bytesPerLine` is the first plane's stride (0: the minimal one);
    /// the planes below it scale with it as they do with the width. Nil when `bytes` holds less
    /// than a whole picture.
    public static func view(
        of bytes: UnsafeRawBufferPointer, width: Int, height: Int, format: PixelFormat, bytesPerLine: Int = 0
    ) throws(AVFailure) -> Frame? {
        let lines = try lineSizes(width: width, format: format, bytesPerLine: bytesPerLine)
        var planes = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        let base = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        let needed = av_image_fill_pointers(&planes, format.av, Int32(height), base, lines)
        guard needed > 0, bytes.count >= Int(needed) else { return nil }
        return try view(planes: planes, lines: lines, width: width, height: height, format: format)
    }

    /// A frame of this geometry whose plane `i` is `planes[i]` with the stride `lines[i]` (not owned).
    static func view(
        planes: [UnsafeMutablePointer<UInt8>?], lines: [Int32], width: Int, height: Int, format: PixelFormat
    ) throws(AVFailure) -> Frame {
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = format.rawValue
        withUnsafeMutableBytes(of: &f.pointee.data) { data in
            let d = data.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
            for (i, plane) in planes.prefix(4).enumerated() { d[i] = plane }
        }
        withUnsafeMutableBytes(of: &f.pointee.linesize) { size in
            let s = size.bindMemory(to: Int32.self)
            for (i, line) in lines.prefix(4).enumerated() { s[i] = line }
        }
        return frame
    }

    /// The bytes a whole picture of this geometry takes in a buffer laid out as `view(of:)` reads
    /// it: a capture buffer filled with fewer holds a torn frame.
    public static func pictureSize(
        width: Int, height: Int, format: PixelFormat, bytesPerLine: Int = 0
    ) throws(AVFailure) -> Int {
        let lines = try lineSizes(width: width, format: format, bytesPerLine: bytesPerLine).map(Int.init)
        var sizes = [Int](repeating: 0, count: 4)
        try check(av_image_fill_plane_sizes(&sizes, format.av, Int32(height), lines), "av_image_fill_plane_sizes")
        return sizes.reduce(0, +)
    }

    /// Per-plane strides: the first plane's `bytesPerLine` (at least the minimal one), the planes
    /// below it scaled with it as they are with the width.
    private static func lineSizes(width: Int, format: PixelFormat, bytesPerLine: Int) throws(AVFailure) -> [Int32] {
        var minimal = [Int32](repeating: 0, count: 4)
        try check(av_image_fill_linesizes(&minimal, format.av, Int32(width)), "av_image_fill_linesizes")
        let stride = Int32(max(bytesPerLine, Int(minimal[0])))
        return minimal.map { minimal[0] > 0 ? $0 * stride / minimal[0] : 0 }
    }

    /// A copy of this picture in buffers of its own (from a view whose memory goes back to a driver).
    public func copyPicture() throws(AVFailure) -> Frame {
        let copy = try Frame.picture(
            width: width, height: height, format: PixelFormat(rawValue: pointer.pointee.format))
        try check(av_frame_copy(copy.pointer, pointer), "av_frame_copy")
        copy.pointer.pointee.pts = pointer.pointee.pts
        return copy
    }

    /// Takes `other`'s properties (timestamps, colour description, aspect ratio, side data), not
    /// its pictures.
    public func copyProperties(from other: Frame) {
        av_frame_copy_props(pointer, other.pointer)
    }
}
