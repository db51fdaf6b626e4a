import HFRMedia

/// The motion trigger's measure, as Edgertronic's image trigger works: the picture's luma (or a
/// region's) brought down to a grid of 32 × 18 cells, each the mean of a sparse sample of its
/// pixels (every 4th pixel of every 4th row: a 4K picture costs ~0.5 M reads), and the score is the
/// mean change of the cells from the previous picture, in percent of full scale. Sensor noise
/// averages out in a cell; a lamp switched on scores ~100 %, a hand across a quarter of the
/// picture ~10 %.
struct MotionDetector {
    static let columns = 32
    static let rows = 18
    static let step = 4
    let region: PixelRegion
    private var previous: [Double]?
    private var cells: [Double]
    private var counts: [Int]

    /// `region` within a `width` × `height` picture (nil: the whole picture).
    init(width: Int, height: Int, region: PixelRegion?) {
        self.region = region ?? PixelRegion(x: 0, y: 0, width: width, height: height)
        cells = Array(repeating: 0, count: Self.columns * Self.rows)
        counts = Array(repeating: 0, count: Self.columns * Self.rows)
    }

    /// The change from the previous picture in percent (0 for the first), from an 8-bit luma plane.
    mutating func score(luma: UnsafePointer<UInt8>, bytesPerLine: Int) -> Double {
        for i in cells.indices {
            cells[i] = 0
            counts[i] = 0
        }
        let r = region
        var y = 0
        while y < r.height {
            let row = luma + (r.y + y) * bytesPerLine + r.x
            let cellRow = min(Self.rows - 1, y * Self.rows / r.height) * Self.columns
            var x = 0
            while x < r.width {
                let cell = cellRow + min(Self.columns - 1, x * Self.columns / r.width)
                cells[cell] += Double(row[x])
                counts[cell] += 1
                x += Self.step
            }
            y += Self.step
        }
        for i in cells.indices where counts[i] > 0 { cells[i] /= Double(counts[i]) }
        defer { previous = cells }
        guard let previous else { return 0 }
        var change = 0.0
        var used = 0
        for i in cells.indices where counts[i] > 0 {
            change += abs(cells[i] - previous[i])
            used += 1
        }
        return used == 0 ? 0 : change / Double(used) / 255 * 100
    }

    /// The score of an I420/NV12/planar picture (its first plane is luma).
    mutating func score(_ frame: Frame) -> Double {
        guard let plane = frame.plane(0) else { return 0 }
        return score(luma: UnsafePointer(plane.bytes), bytesPerLine: plane.bytesPerLine)
    }
}
