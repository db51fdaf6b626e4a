import Foundation

/// Finds flicker in a `FlickerSeries` and fits the model that removes it. For each frequency asked
/// (mains light flickers at 100 or 120 Hz), sliding windows of about 0.4 s are fitted (`WindowFit`)
/// every quarter window; changes of light (steps in the brightness that remains once the flicker
/// is taken out) are found and given a term of their own, so they stay in the picture instead of
/// bending the flicker's fit. Flicker is found where its depth is at least `minimumDepth` and
/// `signalToNoise` times what the same fit finds at frequencies where no light flickers.
public enum FlickerAnalysis {
    /// Shallower flicker is not reported: a picture's own motion makes this much.
    public static let minimumDepth = 0.01
    public static let signalToNoise = 6.0
    /// Harmonics fitted beyond the fundamental (lamps do not flicker as pure sines).
    static let harmonicCount = 2

    /// The model of the deepest flicker among `frequencies` that is there; nil when none is (or the
    /// series is too short to tell: under 16 pictures or a quarter of a second).
    public static func detect(_ series: FlickerSeries, frequencies: [Double]) -> FlickerModel? {
        guard let layout = Layout(series) else { return nil }
        let noise = noiseDepth(series, layout, avoiding: frequencies)
        let found = frequencies.compactMap { f in fit(series, frequency: f, layout: layout) }
            .filter { $0.depth >= minimumDepth && $0.depth >= signalToNoise * noise }
        return found.max { $0.depth < $1.depth }
    }

    /// The model at `frequency` whatever its depth (`--deflicker 50`); nil when the frame rate
    /// cannot see it (every picture at the same phase) or the series is too short.
    public static func fit(_ series: FlickerSeries, frequency: Double) -> FlickerModel? {
        guard let layout = Layout(series) else { return nil }
        return fit(series, frequency: frequency, layout: layout)
    }

    /// Why `frequency` cannot be seen in pictures at `frameRate`: it aliases onto a steady light.
    public static func isInvisible(_ frequency: Double, frameRate: Double) -> Bool {
        harmonics(frequency, frameRate: frameRate, span: 0.4).first != 1
    }

    /// Windows of the series: length in pictures and the step between block centres.
    struct Layout {
        let window: Int
        let step: Int
        let frameRate: Double
        let span: Double

        init?(_ series: FlickerSeries) {
            guard let rate = series.frameRate, series.count >= 16 else { return nil }
            window = min(series.count, max(32, Int((0.4 * rate).rounded())))
            step = max(1, window / 4)
            frameRate = rate
            span = Double(window) / rate
            guard span >= 0.2 else { return nil }
        }

        /// The windows: each block's centre picture and the pictures fitted for it.
        func blocks(count: Int) -> [(centre: Int, range: Range<Int>)] {
            var centres = Array(Swift.stride(from: 0, to: count, by: step))
            if centres.last != count - 1 { centres.append(count - 1) }
            return centres.map { c in
                let lo = min(max(0, c - window / 2), count - window)
                return (c, lo..<(lo + window))
            }
        }
    }

    /// The harmonics of `frequency` a fit can tell from a trend at `frameRate`: each one's alias
    /// makes at least 1.5 cycles in a window and differs from the others'.
    static func harmonics(_ frequency: Double, frameRate: Double, span: Double) -> [Int] {
        var kept: [(h: Int, alias: Double)] = []
        for h in 1...(1 + harmonicCount - 1) {
            let f = Double(h) * frequency
            let alias = abs(f - (f / frameRate).rounded() * frameRate)
            guard alias * span >= 1.5, kept.allSatisfy({ abs($0.alias - alias) * span >= 1.5 }) else { continue }
            kept.append((h, alias))
        }
        return kept.map(\.h)
    }

    static func fit(_ series: FlickerSeries, frequency: Double, layout: Layout) -> FlickerModel? {
        let harmonics = harmonics(frequency, frameRate: layout.frameRate, span: layout.span)
        guard harmonics.first == 1 else { return nil }
        let times = series.times
        let windows = layout.blocks(count: series.count)
        // First the whole picture without steps, to find the changes of light the flicker hid.
        let first = windows.map { w in
            WindowFit(
                times: times, range: w.range, centre: times[w.centre], frequency: frequency, harmonics: harmonics,
                steps: [])
        }
        let pivot = pivot(series, fits: first)
        let frame = series.logSeries(.frame, pivot: pivot)
        let rough = model(
            frequency, harmonics, first.map { f in (f, f.flicker(f.coefficients(of: frame)), [], []) }, false, false,
            pivot)
        let steps = lightSteps(frame, times: times, without: rough)
        let fits = windows.map { w in
            WindowFit(
                times: times, range: w.range, centre: times[w.centre], frequency: frequency, harmonics: harmonics,
                steps: steps)
        }
        let bandSeries = (0..<series.bandCount).map { series.logSeries(.band($0), pivot: pivot) }
        let hasChroma = series.means.allSatisfy { $0.chroma != nil }
        let chroma = hasChroma ? series.logSeries(.chroma) : []
        let blocks = fits.map { f in
            (
                f, f.flicker(f.coefficients(of: frame)), bandSeries.map { f.flicker(f.coefficients(of: $0)) },
                hasChroma ? f.flicker(f.coefficients(of: chroma)) : []
            )
        }
        let whole = model(frequency, harmonics, blocks, false, false, pivot)
        return model(
            frequency, harmonics, blocks, isBanded(blocks.map(\.1), blocks.map(\.2)),
            hasChroma && chromaFlickers(blocks.map(\.3), whole: whole), pivot)
    }

    private static func model(
        _ frequency: Double, _ harmonics: [Int], _ blocks: [(WindowFit, [Double], [[Double]], [Double])],
        _ banded: Bool, _ chroma: Bool, _ pivot: Double
    ) -> FlickerModel {
        FlickerModel(
            frequency: frequency, harmonics: harmonics,
            blocks: blocks.map {
                FlickerModel.Block(time: $0.0.centre, frame: $0.1, bands: $0.2, chroma: $0.3, harmonics: harmonics)
            },
            isBanded: banded, correctsChroma: chroma, pivot: pivot)
    }

    /// Pictures where the light changes at once: the brightness left once the flicker is taken out
    /// jumps by far more than it moves from picture to picture elsewhere (and by at least 1 %).
    static func lightSteps(_ log: [Double], times: [Double], without model: FlickerModel) -> [Int] {
        let rest = zip(log, times).map { $0 - model.logGain(at: $1, position: 0.5) }
        let jumps = zip(rest.dropFirst(), rest).map { abs($0 - $1) }
        guard jumps.count > 4 else { return [] }
        let sorted = jumps.sorted()
        let typical = 1.4826 * sorted[sorted.count / 2]
        let threshold = max(8 * typical, 0.01)
        return jumps.indices.filter { i in
            jumps[i] > threshold && (i == 0 || jumps[i] >= jumps[i - 1])
                && (i + 1 == jumps.count || jumps[i] > jumps[i + 1])
        }.map { $0 + 1 }
    }

    /// The level flicker scales brightness around (`FlickerModel.pivot`), from how the brighter and
    /// the darker half of each picture swing: scaled around p, a half whose mean is μ swings by
    /// A·(μ − p), so the two swings give p. The median over the windows, within −0.1 (limited-range
    /// light made full-range, as MJPEG is: −16·255/219) and a fifth of the range (and below the
    /// darker half); 0 when the halves were not measured or do not tell.
    static func pivot(_ series: FlickerSeries, fits: [WindowFit]) -> Double {
        let halves = series.means.compactMap(\.halves)
        guard halves.count == series.count else { return 0 }
        let upper = halves.map(\.upper)
        let lower = halves.map(\.lower)
        var estimates: [Double] = []
        for f in fits {
            let u = f.coefficients(of: upper)
            let l = f.coefficients(of: lower)
            let (uc, us) = (u[WindowFit.trendTerms], u[WindowFit.trendTerms + 1])
            let (dc, ds) = (uc - l[WindowFit.trendTerms], us - l[WindowFit.trendTerms + 1])
            let swing = dc * dc + ds * ds
            // Halves that swing alike (flicker too shallow to tell, or added rather than scaled) tell nothing.
            guard swing > 1e-8 else { continue }
            let ratio = (uc * dc + us * ds) / swing
            estimates.append(u[0] - ratio * (u[0] - l[0]))
        }
        guard !estimates.isEmpty else { return 0 }
        estimates.sort()
        let darkest = lower.min() ?? 0
        return min(max(estimates[estimates.count / 2], -0.1), 0.2, 0.9 * darkest)
    }

    /// Whether the bands flicker out of phase with the whole picture (a rolling shutter): the
    /// fundamental's phase in some band differs from the whole picture's by more than 10°.
    static func isBanded(_ frame: [[Double]], _ bands: [[[Double]]]) -> Bool {
        guard let count = bands.first?.count, count > 1 else { return false }
        for b in 0..<count {
            var re = 0.0
            var im = 0.0
            for (f, blockBands) in zip(frame, bands) {
                let (fc, fs) = (f[0], f[1])
                let (bc, bs) = (blockBands[b][0], blockBands[b][1])
                // band × conj(frame), as complex amplitudes c − i·s.
                re += bc * fc + bs * fs
                im += -bs * fc + bc * fs
            }
            if abs(atan2(im, re)) > 10 * Double.pi / 180 { return true }
        }
        return false
    }

    /// Whether chroma's distance from grey flickers at least half as deep as brightness.
    static func chromaFlickers(_ chroma: [[Double]], whole: FlickerModel) -> Bool {
        let depths = chroma.map { FlickerModel.depth(of: $0, harmonics: whole.harmonics) }.sorted()
        guard !depths.isEmpty else { return false }
        let depth = depths[depths.count / 2]
        return depth >= minimumDepth && depth >= 0.5 * whole.depth
    }

    /// The depth the fit finds at frequencies no mains light aliases to at this frame rate: what the
    /// picture's own changes make.
    static func noiseDepth(_ series: FlickerSeries, _ layout: Layout, avoiding frequencies: [Double]) -> Double {
        let rate = layout.frameRate
        let aliases = frequencies.flatMap { f in
            (1...harmonicCount).map { h in abs(Double(h) * f - (Double(h) * f / rate).rounded() * rate) }
        }
        let probes = [0.07, 0.13, 0.19, 0.26, 0.31, 0.38, 0.44].map { $0 * rate }.filter { p in
            p * layout.span >= 1.5 && aliases.allSatisfy { abs($0 - p) * layout.span >= 2 }
        }
        let depths = probes.compactMap { p -> Double? in
            guard let m = fitFundamental(series, frequency: p, layout: layout) else { return nil }
            return m.depth
        }.sorted()
        return depths.isEmpty ? 0 : depths[depths.count / 2]
    }

    /// The whole picture's fit of the fundamental alone at `frequency`, without steps.
    static func fitFundamental(_ series: FlickerSeries, frequency: Double, layout: Layout) -> FlickerModel? {
        let times = series.times
        let frame = series.logSeries(.frame)
        let blocks = layout.blocks(count: series.count).map { w in
            let f = WindowFit(
                times: times, range: w.range, centre: times[w.centre], frequency: frequency, harmonics: [1], steps: [])
            return (f, f.flicker(f.coefficients(of: frame)), [[Double]](), [Double]())
        }
        return model(frequency, [1], blocks, false, false, 0)
    }
}
