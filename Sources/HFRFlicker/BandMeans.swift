import HFRMedia

/// The brightness of a picture as flicker is measured from it: the mean of its brightness samples
/// in each of `count` horizontal bands, top to bottom (a rolling shutter's flicker is a band that
/// moves down the picture), and the mean distance of its colour-difference samples from their
/// middle (brightness that scales chroma too, as light through an RGB sensor does), each as a
/// fraction of the largest sample value. Every second sample of every second row is read.
public struct BandMeans: Sendable {
    public var bands: [Double]
    /// Nil for pictures without chroma (RGB, grey).
    public var chroma: Double?

    /// The mean of all bands: the picture's brightness.
    public var frame: Double { bands.reduce(0, +) / Double(bands.count) }

    public init(bands: [Double], chroma: Double?) {
        self.bands = bands
        self.chroma = chroma
    }

    /// Measures `frame`, whose samples `levels` describes, in `count` bands.
    public init(_ frame: Frame, levels: SampleLevels, count: Int) {
        var sums = [Double](repeating: 0, count: count)
        var samples = [Int](repeating: 0, count: count)
        for plane in levels.brightness {
            guard let (bytes, stride) = frame.plane(plane.index) else { continue }
            for row in Swift.stride(from: 0, to: plane.rows, by: 2) {
                let band = min(count - 1, row * count / plane.rows)
                let (sum, n) = BandMeans.rowSum(bytes + row * stride, plane.samplesPerRow, levels.bytesPerSample)
                sums[band] += sum
                samples[band] += n
            }
        }
        let scale = 1 / Double(levels.maximum)
        bands = zip(sums, samples).map { $1 > 0 ? $0 / Double($1) * scale : 0 }
        guard !levels.chroma.isEmpty else {
            chroma = nil
            return
        }
        var distance = 0.0
        var n = 0
        for plane in levels.chroma {
            guard let (bytes, stride) = frame.plane(plane.index) else { continue }
            for row in Swift.stride(from: 0, to: plane.rows, by: 2) {
                let (d, k) = BandMeans.rowDistance(
                    bytes + row * stride, plane.samplesPerRow, levels.bytesPerSample, middle: levels.middle)
                distance += d
                n += k
            }
        }
        chroma = n > 0 ? distance / Double(n) * scale : nil
    }

    /// The sum of every second sample of a row, and how many.
    static func rowSum(_ line: UnsafeMutablePointer<UInt8>, _ count: Int, _ bytes: Int) -> (Double, Int) {
        var sum = 0
        if bytes == 1 {
            for i in Swift.stride(from: 0, to: count, by: 2) { sum += Int(line[i]) }
        } else {
            let raw = UnsafeRawPointer(line)
            for i in Swift.stride(from: 0, to: count, by: 2) {
                sum += Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
            }
        }
        return (Double(sum), (count + 1) / 2)
    }

    /// The summed distance of every second sample of a row from `middle`, and how many.
    static func rowDistance(
        _ line: UnsafeMutablePointer<UInt8>, _ count: Int, _ bytes: Int, middle: Int
    ) -> (Double, Int) {
        var sum = 0
        if bytes == 1 {
            for i in Swift.stride(from: 0, to: count, by: 2) { sum += abs(Int(line[i]) - middle) }
        } else {
            let raw = UnsafeRawPointer(line)
            for i in Swift.stride(from: 0, to: count, by: 2) {
                let v = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                sum += abs(v - middle)
            }
        }
        return (Double(sum), (count + 1) / 2)
    }
}
