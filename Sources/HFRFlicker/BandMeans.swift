import HFRMedia

/// The brightness of a picture as flicker is measured from it: the mean of its brightness samples
/// in each of `count` horizontal bands, top to bottom (a rolling shutter's flicker is a band that
/// moves down the picture), and the mean distance of its colour-difference samples from their
/// middle (brightness that scales chroma too, as light through an RGB sensor does), each as a
/// fraction of the largest sample value. Every second sample of every second row is read. Also the
/// means of its brighter and its darker half of samples: flicker scales brightness around a black
/// level (0, or 16 of 255 in limited-range video made from flickering RGB), which the two halves'
/// swings tell (`FlickerAnalysis.pivot`).
public struct BandMeans: Sendable {
    public var bands: [Double]
    /// Nil for pictures without chroma (RGB, grey).
    public var chroma: Double?
    /// The means of the brighter and of the darker half of the brightness samples; nil when not measured.
    public var halves: (upper: Double, lower: Double)?

    /// The mean of all bands: the picture's brightness.
    public var frame: Double { bands.reduce(0, +) / Double(bands.count) }

    public init(bands: [Double], chroma: Double?, halves: (upper: Double, lower: Double)? = nil) {
        self.bands = bands
        self.chroma = chroma
        self.halves = halves
    }

    /// Measures `frame`, whose samples `levels` describes, in `count` bands.
    public init(_ frame: Frame, levels: SampleLevels, count: Int) {
        self.init(frame, levels: levels, count: count, step: 2, chroma: true)
    }

    /// Measures `frame` reading every `step`-th sample of every `step`-th row (the plain init's
    /// step is 2), its chroma only when `chroma` says so: a live meter's cheaper look.
    public init(_ frame: Frame, levels: SampleLevels, count: Int, step: Int, chroma measuresChroma: Bool) {
        var sums = [Double](repeating: 0, count: count)
        var samples = [Int](repeating: 0, count: count)
        // Samples by their top 8 bits: the halves' means to within a 256th of the range.
        var histogram = [Int](repeating: 0, count: 256)
        let shift = max(0, (Int.bitWidth - levels.maximum.leadingZeroBitCount) - 8)
        for plane in levels.brightness {
            guard let (bytes, stride) = frame.plane(plane.index) else { continue }
            for row in Swift.stride(from: 0, to: plane.rows, by: step) {
                let band = min(count - 1, row * count / plane.rows)
                let (sum, n) = histogram.withUnsafeMutableBufferPointer {
                    BandMeans.rowSum(
                        bytes + row * stride, plane.samplesPerRow, levels.bytesPerSample, step: step, shift: shift,
                        into: $0)
                }
                sums[band] += sum
                samples[band] += n
            }
        }
        let scale = 1 / Double(levels.maximum)
        bands = zip(sums, samples).map { $1 > 0 ? $0 / Double($1) * scale : 0 }
        halves = BandMeans.halves(histogram, binWidth: 1 << shift, scale: scale)
        guard measuresChroma, !levels.chroma.isEmpty else {
            chroma = nil
            return
        }
        var distance = 0.0
        var n = 0
        // An odd step along a row reads both of interleaved Cb/Cr pairs (NV12), not Cb alone.
        let across = step % 2 == 0 ? step + 1 : step
        for plane in levels.chroma {
            guard let (bytes, stride) = frame.plane(plane.index) else { continue }
            for row in Swift.stride(from: 0, to: plane.rows, by: step) {
                let (d, k) = BandMeans.rowDistance(
                    bytes + row * stride, plane.samplesPerRow, levels.bytesPerSample, middle: levels.middle,
                    step: across)
                distance += d
                n += k
            }
        }
        chroma = n > 0 ? distance / Double(n) * scale : nil
    }

    /// The sum of every `step`-th sample of a row, and how many; each counted in `histogram` by its
    /// value shifted right by `shift`.
    static func rowSum(
        _ line: UnsafeMutablePointer<UInt8>, _ count: Int, _ bytes: Int, step: Int, shift: Int,
        into histogram: UnsafeMutableBufferPointer<Int>
    ) -> (Double, Int) {
        var sum = 0
        if bytes == 1 {
            for i in Swift.stride(from: 0, to: count, by: step) {
                let v = Int(line[i])
                sum += v
                histogram[v] += 1
            }
        } else {
            let raw = UnsafeRawPointer(line)
            for i in Swift.stride(from: 0, to: count, by: step) {
                let v = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                sum += v
                histogram[min(255, v >> shift)] += 1
            }
        }
        return (Double(sum), (count + step - 1) / step)
    }

    /// The means of the upper and lower half of the samples a histogram counts (bins `binWidth`
    /// sample values wide, each at its middle; the median's bin shared between the halves), times
    /// `scale`.
    static func halves(_ histogram: [Int], binWidth: Int, scale: Double) -> (upper: Double, lower: Double)? {
        let total = histogram.reduce(0, +)
        guard total > 1 else { return nil }
        let half = Double(total) / 2
        var below = 0.0
        var lowerSum = 0.0
        var upperSum = 0.0
        for (bin, n) in histogram.enumerated() where n > 0 {
            let value = (Double(bin * binWidth) + Double(binWidth - 1) / 2) * scale
            let low = min(Double(n), max(0, half - below))
            lowerSum += low * value
            upperSum += (Double(n) - low) * value
            below += Double(n)
        }
        return (upperSum / half, lowerSum / half)
    }

    /// The summed distance of every `step`-th sample of a row from `middle`, and how many.
    static func rowDistance(
        _ line: UnsafeMutablePointer<UInt8>, _ count: Int, _ bytes: Int, middle: Int, step: Int
    ) -> (Double, Int) {
        var sum = 0
        if bytes == 1 {
            for i in Swift.stride(from: 0, to: count, by: step) { sum += abs(Int(line[i]) - middle) }
        } else {
            let raw = UnsafeRawPointer(line)
            for i in Swift.stride(from: 0, to: count, by: step) {
                let v = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                sum += abs(v - middle)
            }
        }
        return (Double(sum), (count + step - 1) / step)
    }
}
