import Foundation

/// A least-squares fit of a log-brightness series over one window of pictures: a quadratic trend
/// (light that changes slowly), a step at each change of light found within the window, and the
/// flicker's harmonics (cosine and sine of h·2πf·t on the pictures' real times, so that aliasing
/// at the frame rate needs no special case). The design is shared by every series fitted over the
/// same window (each band), so it is solved once: `coefficients(of:)` is a product.
struct WindowFit {
    /// Window's pictures: indices into the series.
    let range: Range<Int>
    /// Real time the fit describes (the block's centre).
    let centre: Double
    /// Harmonic numbers fitted (1 = the flicker's frequency).
    let harmonics: [Int]
    let frequency: Double
    /// (XᵀX)⁻¹Xᵀ: one row per coefficient.
    private let solver: [[Double]]

    /// Trend terms before the harmonics' in a coefficient vector.
    static let trendTerms = 3

    init(times: [Double], range: Range<Int>, centre: Double, frequency: Double, harmonics: [Int], steps: [Int]) {
        self.range = range
        self.centre = centre
        self.frequency = frequency
        self.harmonics = harmonics
        let first = times[range.lowerBound]
        let half = max((times[range.upperBound - 1] - first) / 2, 1e-9)
        let mid = first + half
        let inside = steps.filter { $0 > range.lowerBound && $0 < range.upperBound }
        let rows: [[Double]] = range.map { i in
            let t = times[i]
            let tau = (t - mid) / half
            var row = [1, tau, tau * tau]
            for h in harmonics {
                let phase = 2 * Double.pi * Double(h) * frequency * t
                row += [cos(phase), sin(phase)]
            }
            row += inside.map { i >= $0 ? 1 : 0 }
            return row
        }
        solver = WindowFit.pseudoInverse(rows)
    }

    /// The coefficients for `values` (the whole series; the window's part is read).
    func coefficients(of values: [Double]) -> [Double] {
        solver.map { row in
            var sum = 0.0
            for (k, i) in range.enumerated() { sum += row[k] * values[i] }
            return sum
        }
    }

    /// The harmonics' coefficients (cosine, sine per harmonic) of a fit: the flicker's part.
    func flicker(_ coefficients: [Double]) -> [Double] {
        Array(coefficients[WindowFit.trendTerms..<(WindowFit.trendTerms + 2 * harmonics.count)])
    }

    /// (XᵀX + λI)⁻¹Xᵀ for the rows of X, λ tiny (a sine sampled at the Nyquist rate is zero).
    static func pseudoInverse(_ rows: [[Double]]) -> [[Double]] {
        let k = rows.first?.count ?? 0
        var a = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
        for r in rows {
            for i in 0..<k { for j in 0..<k { a[i][j] += r[i] * r[j] } }
        }
        let ridge = 1e-9 * max(1, (0..<k).reduce(0) { $0 + a[$1][$1] })
        for i in 0..<k { a[i][i] += ridge }
        let inverse = invert(a)
        return (0..<k).map { i in
            rows.map { r in (0..<k).reduce(0) { $0 + inverse[i][$1] * r[$1] } }
        }
    }

    /// The inverse of a small symmetric positive definite matrix (Gauss–Jordan with pivoting).
    static func invert(_ m: [[Double]]) -> [[Double]] {
        let n = m.count
        var a = m
        var inv = (0..<n).map { i in (0..<n).map { $0 == i ? 1.0 : 0 } }
        for col in 0..<n {
            let pivot = (col..<n).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            a.swapAt(col, pivot)
            inv.swapAt(col, pivot)
            let p = a[col][col]
            guard abs(p) > 1e-300 else { continue }
            for j in 0..<n {
                a[col][j] /= p
                inv[col][j] /= p
            }
            for r in 0..<n where r != col {
                let f = a[r][col]
                guard f != 0 else { continue }
                for j in 0..<n {
                    a[r][j] -= f * a[col][j]
                    inv[r][j] -= f * inv[col][j]
                }
            }
        }
        return inv
    }
}
