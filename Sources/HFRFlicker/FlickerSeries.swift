import Foundation
import HFRMedia

/// The brightness of a run of pictures over time, as flicker is measured and removed from it:
/// each picture's real time in seconds (capture time, not playback time) and its `BandMeans`.
public struct FlickerSeries: Sendable {
    /// Horizontal bands each picture is measured in.
    public let bandCount: Int
    public private(set) var times: [Double] = []
    public private(set) var means: [BandMeans] = []

    /// Bands for pictures `height` rows high: 16, fewer for pictures under 64 rows.
    public init(height: Int) {
        bandCount = max(1, min(16, height / 4))
    }

    public init(bandCount: Int) {
        self.bandCount = bandCount
    }

    /// `series` with its pictures in time order (a decoder hands them in presentation order; a
    /// series gathered otherwise may not be).
    public init(sortedFrom series: FlickerSeries) {
        bandCount = series.bandCount
        let order = series.times.indices.sorted { series.times[$0] < series.times[$1] }
        times = order.map { series.times[$0] }
        means = order.map { series.means[$0] }
    }

    public var count: Int { times.count }

    /// Adds a picture measured elsewhere.
    public mutating func add(_ measured: BandMeans, time: Double) {
        times.append(time)
        means.append(measured)
    }

    /// Measures and adds `frame` (of a format `levels` describes) shown at real `time`.
    public mutating func add(_ frame: Frame, levels: SampleLevels, time: Double) {
        add(BandMeans(frame, levels: levels, count: bandCount), time: time)
    }

    /// Keeps the last `count` pictures only (a live meter's window).
    public mutating func keepLast(_ count: Int) {
        guard times.count > count else { return }
        times.removeFirst(times.count - count)
        means.removeFirst(means.count - count)
    }

    /// The pictures per second the times show (their median spacing); nil with fewer than 2.
    public var frameRate: Double? {
        guard times.count > 1 else { return nil }
        var gaps = zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > 0 }
        guard !gaps.isEmpty else { return nil }
        gaps.sort()
        return 1 / gaps[gaps.count / 2]
    }

    /// The log of each picture's brightness above `pivot` (all bands, or band `band`), or of its
    /// chroma's distance from grey.
    func logSeries(_ which: Signal, pivot: Double = 0) -> [Double] {
        means.map { m in
            let v: Double
            switch which {
            case .frame: v = m.frame - pivot
            case .band(let b): v = m.bands[b] - pivot
            case .chroma: v = m.chroma ?? 0
            }
            return log(max(v, 1e-4))
        }
    }

    /// Which brightness a fit follows.
    enum Signal: Equatable {
        case frame
        case band(Int)
        case chroma
    }
}
