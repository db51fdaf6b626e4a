import Foundation

/// The flicker found in a series, as a gain on brightness that varies with real time and, under a
/// rolling shutter, with the row: per block of pictures (a sliding window's fit, `WindowFit`), the
/// cosine and sine coefficients of each harmonic of the flicker's frequency in log brightness, for
/// the whole picture and for each band, and for chroma where it flickers too. Between block centres
/// the coefficients are interpolated in time, between band centres the log gains in position.
public struct FlickerModel: Sendable {
    /// The light's flicker frequency in Hz (twice the mains frequency: 100 or 120).
    public let frequency: Double
    /// The harmonics fitted (1 = `frequency`), those the frame rate does not alias onto a trend.
    let harmonics: [Int]
    let blocks: [Block]
    /// Whether bands of the picture flicker out of phase (a rolling shutter): gains by row.
    public let isBanded: Bool
    /// Whether chroma flickers with brightness (light scaled before the colour matrix).
    public let correctsChroma: Bool
    /// The level brightness is scaled around, as a fraction of the largest sample value: 0, or the
    /// black level of limited-range video made from flickering light (16 of 255).
    public let pivot: Double

    /// One window's fit: the harmonics' coefficients (cosine, sine) of each signal, each with the
    /// log of its gain's mean over a period as the last element, so that a gain averages 1 over a
    /// period (the light's mean is the picture without flicker).
    struct Block: Sendable {
        let time: Double
        let frame: [Double]
        let bands: [[Double]]
        let chroma: [Double]

        init(time: Double, frame: [Double], bands: [[Double]], chroma: [Double], harmonics: [Int]) {
            self.time = time
            let normalised = { (c: [Double]) in c.isEmpty ? c : c + [FlickerModel.meanLogGain(c, harmonics: harmonics)]
            }
            self.frame = normalised(frame)
            self.bands = bands.map(normalised)
            self.chroma = normalised(chroma)
        }
    }

    /// The log of the flicker's gain at real `time`, at `position` down the picture (0 top, 1 bottom).
    public func logGain(at time: Double, position: Double) -> Double {
        profile(at: time).logGain(at: position)
    }

    /// The log gains of one moment down the picture: one per band (band centres at (i + ½)/count,
    /// rows beyond the outer centres taking the outer band's), or one for the whole picture. Made
    /// once per picture; each row interpolates.
    public struct Profile: Sendable {
        let bands: [Double]

        /// The log gain at `position` down the picture (0 top, 1 bottom).
        public func logGain(at position: Double) -> Double {
            guard bands.count > 1 else { return bands.first ?? 0 }
            let x = min(max(position * Double(bands.count) - 0.5, 0), Double(bands.count - 1))
            let i = min(Int(x), bands.count - 2)
            return bands[i] + (bands[i + 1] - bands[i]) * (x - Double(i))
        }
    }

    /// The gains at real `time`: per band when the picture flickers in bands.
    public func profile(at time: Double) -> Profile {
        guard let (a, b, w) = neighbours(time) else { return Profile(bands: []) }
        guard isBanded, a.bands.count > 1 else { return Profile(bands: [value(a.frame, b.frame, w, time)]) }
        return Profile(bands: zip(a.bands, b.bands).map { value($0, $1, w, time) })
    }

    /// The log of chroma's gain at real `time` (0 when chroma is left as it is).
    public func chromaLogGain(at time: Double) -> Double {
        guard correctsChroma, let (a, b, w) = neighbours(time) else { return 0 }
        return value(a.chroma, b.chroma, w, time)
    }

    /// The blocks either side of `time` and the weight of the later one (nil without blocks).
    private func neighbours(_ time: Double) -> (Block, Block, Double)? {
        guard let first = blocks.first, let last = blocks.last else { return nil }
        if time <= first.time { return (first, first, 0) }
        if time >= last.time { return (last, last, 0) }
        var lo = 0
        var hi = blocks.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if blocks[mid].time <= time { lo = mid } else { hi = mid }
        }
        let a = blocks[lo]
        let b = blocks[hi]
        return (a, b, (time - a.time) / max(b.time - a.time, 1e-12))
    }

    /// The flicker waveform at `time` from coefficients interpolated between two blocks.
    private func value(_ a: [Double], _ b: [Double], _ w: Double, _ time: Double) -> Double {
        var sum = 0.0
        for (k, h) in harmonics.enumerated() {
            let c = a[2 * k] + (b[2 * k] - a[2 * k]) * w
            let s = a[2 * k + 1] + (b[2 * k + 1] - a[2 * k + 1]) * w
            let phase = 2 * Double.pi * Double(h) * frequency * time
            sum += c * cos(phase) + s * sin(phase)
        }
        let mean = 2 * harmonics.count
        return sum - (a[mean] + (b[mean] - a[mean]) * w)
    }

    /// The log of the mean over one period of the gain whose log has these harmonics.
    static func meanLogGain(_ coefficients: [Double], harmonics: [Int]) -> Double {
        var sum = 0.0
        for step in 0..<64 {
            let x = 2 * Double.pi * Double(step) / 64
            var v = 0.0
            for (k, h) in harmonics.enumerated() {
                v += coefficients[2 * k] * cos(Double(h) * x) + coefficients[2 * k + 1] * sin(Double(h) * x)
            }
            sum += exp(v)
        }
        return log(sum / 64)
    }

    /// The flicker's depth, (max − min)/(max + min) of the gain over one period: the median over
    /// blocks of the whole picture's, or with bands of their mean (bands out of phase partly cancel
    /// in the whole picture).
    public var depth: Double {
        let depths = blocks.map { b in
            guard isBanded, !b.bands.isEmpty else { return FlickerModel.depth(of: b.frame, harmonics: harmonics) }
            return b.bands.reduce(0) { $0 + FlickerModel.depth(of: $1, harmonics: harmonics) } / Double(b.bands.count)
        }.sorted()
        return depths.isEmpty ? 0 : depths[depths.count / 2]
    }

    /// The depth of one block's waveform (coefficients of `harmonics`).
    static func depth(of coefficients: [Double], harmonics: [Int]) -> Double {
        var low = Double.infinity
        var high = -Double.infinity
        for step in 0..<64 {
            let x = 2 * Double.pi * Double(step) / 64
            var v = 0.0
            for (k, h) in harmonics.enumerated() {
                v += coefficients[2 * k] * cos(Double(h) * x) + coefficients[2 * k + 1] * sin(Double(h) * x)
            }
            low = min(low, exp(v))
            high = max(high, exp(v))
        }
        return high + low > 0 ? (high - low) / (high + low) : 0
    }

    /// The measured frequency: `frequency` moved by the drift of the fundamental's phase over the
    /// blocks (mains frequency is not exactly nominal), when there are enough blocks to tell.
    public var measuredFrequency: Double {
        guard blocks.count >= 4, let k = harmonics.firstIndex(of: 1) else { return frequency }
        var phases: [Double] = []
        for b in blocks {
            var p = atan2(b.frame[2 * k + 1], b.frame[2 * k])
            if let last = phases.last {
                while p - last > Double.pi { p -= 2 * Double.pi }
                while p - last < -Double.pi { p += 2 * Double.pi }
            }
            phases.append(p)
        }
        let times = blocks.map(\.time)
        let mt = times.reduce(0, +) / Double(times.count)
        let mp = phases.reduce(0, +) / Double(phases.count)
        let sxy = zip(times, phases).reduce(0) { $0 + ($1.0 - mt) * ($1.1 - mp) }
        let sxx = times.reduce(0) { $0 + ($1 - mt) * ($1 - mt) }
        guard sxx > 0 else { return frequency }
        // A cos(ωt − φ): a phase that grows at rate r is a frequency lower by r/2π.
        let drift = -(sxy / sxx) / (2 * Double.pi)
        return abs(drift) < 1 ? frequency + drift : frequency
    }
}
