import HFRMedia

/// A weighted average of pictures, sample by sample (the motion blur of a longer shutter: the
/// frames exposed while it is open, each weighted by how long): add pictures with their weights,
/// then take the average, rounded to the nearest sample value. Works on any format whose samples
/// are independent bytes or words (`PixelFormat.sampleLayout`); sums in Double, so rounding is
/// the only error.
public final class FrameAverage {
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    private let bytesPerSample: Int
    private let planes: [(rowBytes: Int, rows: Int)]
    /// Per plane, the weighted sums of its samples, row after row.
    private var sums: [[Double]]
    /// The weights added so far.
    public private(set) var weight = 0.0
    /// Frame properties (colour, aspect) of the first picture added, for the average.
    private var model: Frame?

    /// Nil when `format` has no sample-wise layout: convert the pictures to one that has first.
    public init?(format: PixelFormat, width: Int, height: Int) {
        guard let layout = format.sampleLayout(width: width, height: height) else { return nil }
        self.format = format
        self.width = width
        self.height = height
        bytesPerSample = layout.bytesPerSample
        planes = layout.planes
        sums = layout.planes.map { [Double](repeating: 0, count: $0.rowBytes / layout.bytesPerSample * $0.rows) }
    }

    /// Adds `picture` (of this format and size) with `weight` (> 0).
    public func add(_ picture: Frame, weight w: Double) {
        precondition(picture.pixelFormat == format && picture.width == width && picture.height == height)
        guard w > 0 else { return }
        if model == nil { model = picture }
        weight += w
        for (p, plane) in planes.enumerated() {
            guard let (bytes, stride) = picture.plane(p) else { continue }
            let perRow = plane.rowBytes / bytesPerSample
            sums[p].withUnsafeMutableBufferPointer { sum in
                for row in 0..<plane.rows {
                    let line = bytes + row * stride
                    let base = row * perRow
                    if bytesPerSample == 1 {
                        for i in 0..<perRow { sum[base + i] += w * Double(line[i]) }
                    } else {
                        let words = UnsafeRawPointer(line)
                        for i in 0..<perRow {
                            sum[base + i] +=
                                w
                                * Double(
                                    UInt16(littleEndian: words.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                        }
                    }
                }
            }
        }
    }

    /// The average of what was added, as a new picture; nil when nothing was.
    public func average() throws -> Frame? {
        guard weight > 0, let model else { return nil }
        let out = try Frame.picture(width: width, height: height, format: format)
        out.copyProperties(from: model)
        let scale = 1 / weight
        for (p, plane) in planes.enumerated() {
            guard let (bytes, stride) = out.plane(p) else { continue }
            let perRow = plane.rowBytes / bytesPerSample
            sums[p].withUnsafeBufferPointer { sum in
                for row in 0..<plane.rows {
                    let line = bytes + row * stride
                    let base = row * perRow
                    if bytesPerSample == 1 {
                        for i in 0..<perRow { line[i] = UInt8(min(255, (sum[base + i] * scale).rounded())) }
                    } else {
                        let words = UnsafeMutableRawPointer(line)
                        for i in 0..<perRow {
                            let v = UInt16(min(65535, (sum[base + i] * scale).rounded()))
                            words.storeBytes(of: v.littleEndian, toByteOffset: 2 * i, as: UInt16.self)
                        }
                    }
                }
            }
        }
        return out
    }
}
