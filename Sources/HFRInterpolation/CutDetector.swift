import Foundation
import HFRMedia

/// Scene cuts between two neighbouring frames, judged as RIFE judges them before it interpolates
/// (`inference_video.py`): both pictures shrunk to 32×32 and compared by SSIM; below 0.2 they show
/// different scenes, and no picture may be made between them (a morph of two scenes is no frame of
/// either). Reads the luma only: a thumbnail that small keeps the layout of a scene (where it is
/// light and dark), which a cut replaces and motion only shifts.
///
/// Measured on lavfi sources at 320x180 (consecutive frames of moving pictures against the first
/// frames of two different sources), the SSIM of the thumbnails:
/// - motion: testsrc2 ≥ 0.975 at 30 fps and ≥ 0.994 at 120–240 fps; mandelbrot's zoom ≥ 0.928 at
///   30 fps, ≥ 0.979 at 60; a pan of 2000 px/s across the 320 px picture (a fifth of it per frame
///   at 30 fps) 0.31 at 30 fps, 0.51 at 60 and 0.68 at 240 (5th percentiles).
/// - cuts: 66 of the 78 pairs of 13 sources below 0.2 (testsrc2 against mandelbrot 0.13, smptebars
///   −0.07, a solid colour 0.05); the pairs above it are low-contrast pictures of about the same
///   brightness (gradients against grey 0.92, noise against grey 0.67) or two kinds of colour bars
///   (0.33, 0.37), whose thumbnails a cut hardly changes.
public struct CutDetector: Sendable {
    /// The thumbnails' width and height.
    public static let side = 32
    /// SSIM of the thumbnails below which two frames are a cut (RIFE's).
    public var threshold: Double

    public init(threshold: Double = 0.2) {
        self.threshold = threshold
    }

    /// A picture's luma area-averaged to `side`×`side` (the aspect ratio is not kept: both pictures of
    /// a pair are squeezed alike).
    public struct Thumbnail: Sendable, Equatable {
        /// Row by row, mean luma values (0–255).
        public let samples: [Double]
    }

    /// The thumbnail of an 8-bit 4:2:0 picture (`yuv420p`, `yuvj420p`).
    public static func thumbnail(of frame: Frame) throws(InterpolationError) -> Thumbnail {
        guard let format = frame.pixelFormat, format.isI420 else {
            throw .unsupportedFormat(frame.pixelFormat?.name ?? "no picture")
        }
        guard let luma = frame.plane(0), frame.width > 0, frame.height > 0 else {
            throw .unsupportedSize("\(frame.width)x\(frame.height)")
        }
        let (w, h) = (frame.width, frame.height)
        // Cell i spans [i·w/side, (i+1)·w/side); a picture narrower than `side` repeats its columns.
        func bounds(_ i: Int, _ n: Int) -> Range<Int> {
            let from = min(i * n / side, n - 1)
            return from..<max(from + 1, (i + 1) * n / side)
        }
        let columns = (0..<side).map { bounds($0, w) }
        var samples = [Double](repeating: 0, count: side * side)
        for j in 0..<side {
            let rows = bounds(j, h)
            var sums = [Int](repeating: 0, count: side)
            for y in rows {
                let line = luma.bytes + y * luma.bytesPerLine
                for i in 0..<side {
                    var sum = 0
                    for x in columns[i] { sum += Int(line[x]) }
                    sums[i] += sum
                }
            }
            for i in 0..<side { samples[j * side + i] = Double(sums[i]) / Double(rows.count * columns[i].count) }
        }
        return Thumbnail(samples: samples)
    }

    /// Whether `a` and `b` (thumbnails of neighbouring frames) show different scenes.
    public func isCut(_ a: Thumbnail, _ b: Thumbnail) -> Bool {
        Self.similarity(a, b) < threshold
    }

    /// The mean SSIM of two thumbnails (Wang et al.: an 11×11 Gaussian window, σ 1.5, at every
    /// position inside the thumbnail; constants for 8-bit samples): 1 for equal ones.
    public static func similarity(_ a: Thumbnail, _ b: Thumbnail) -> Double {
        let x = a.samples
        let y = b.samples
        let mx = blurred(x)
        let my = blurred(y)
        let xx = blurred(x.map { $0 * $0 })
        let yy = blurred(y.map { $0 * $0 })
        let xy = blurred(zip(x, y).map { $0 * $1 })
        let c1 = (0.01 * 255) * (0.01 * 255)
        let c2 = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        for k in mx.indices {
            let (mux, muy) = (mx[k], my[k])
            let varX = xx[k] - mux * mux
            let varY = yy[k] - muy * muy
            let cov = xy[k] - mux * muy
            total += (2 * mux * muy + c1) * (2 * cov + c2) / ((mux * mux + muy * muy + c1) * (varX + varY + c2))
        }
        return total / Double(mx.count)
    }

    /// The SSIM window's weights.
    static let window: [Double] = {
        let weights = (-5...5).map { d in exp(-Double(d * d) / (2 * 1.5 * 1.5)) }
        let sum = weights.reduce(0, +)
        return weights.map { $0 / sum }
    }()

    /// `samples` (side×side) filtered by the window where it fits wholly: (side−10)² values, rows
    /// then columns (the window is separable).
    static func blurred(_ samples: [Double]) -> [Double] {
        let n = side - window.count + 1
        var rows = [Double](repeating: 0, count: n * side)
        for y in 0..<side {
            for x in 0..<n {
                var sum = 0.0
                for (k, weight) in window.enumerated() { sum += weight * samples[y * side + x + k] }
                rows[x * side + y] = sum
            }
        }
        var out = [Double](repeating: 0, count: n * n)
        for x in 0..<n {
            for y in 0..<n {
                var sum = 0.0
                for (k, weight) in window.enumerated() { sum += weight * rows[x * side + y + k] }
                out[y * n + x] = sum
            }
        }
        return out
    }
}
