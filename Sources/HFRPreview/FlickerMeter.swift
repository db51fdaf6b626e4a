import Foundation
import HFRFlicker
import HFRMedia
import Synchronization

/// The live picture's flicker, for the preview (`/status`' `flicker`, the page's line): every
/// picture's brightness by band (`BandMeans`, a few thousand samples read) is taken on the capture
/// thread as it passes the tap, at its capture time; the last second of them (at least
/// `minimumFrames`) is searched for mains flicker (`FlickerAnalysis`) by `estimate()`, on the
/// preview's own thread twice a second, so the capture pays for the measurement only.
///
/// Nothing is measured or searched while nobody asks (`want()`: a `/status` or `/events` document
/// made in the last `demandSeconds`), as no picture is encoded while nobody watches.
public final class FlickerMeter: Sendable {
    /// What the meter found.
    public enum Reading: Sendable, Equatable {
        /// Not measured yet: under `minimumSpan` seconds or `minimumFrames` pictures, pictures
        /// whose format has no brightness plane of its own, or nobody asking.
        case unknown
        /// No flicker of 100 or 120 Hz, or too shallow to tell from the picture's own changes.
        case none
        /// Flicker at `frequency` Hz, `depth` deep ((max − min)/(max + min) of the light; 0.15 is
        /// 15 %), `banded`: rows flicker out of phase (a rolling shutter).
        case flicker(frequency: Double, depth: Double, banded: Bool)
    }

    /// Seconds of pictures kept and searched…
    static let span = 1.0
    /// …but at least this many pictures (a slow camera's second is too few to fit).
    static let minimumFrames = 48
    /// Seconds a search needs at least.
    static let minimumSpan = 0.5
    /// At most this many pictures are kept whatever the rate (a bound on memory and on a search).
    static let maximumFrames = 1024
    /// A longer gap between pictures starts the series again.
    static let longestGap = 0.5
    /// Light flickers at twice the mains frequency.
    static let frequencies = [100.0, 120.0]
    /// Samples read per picture at most: flicker lights the whole picture, so a sparse grid of it
    /// tells as well as every sample (debug build, 320x240: 4800 samples 0.3 ms, all 2.2 ms).
    static let samplesPerPicture = 8192
    /// Bands at most: a rolling shutter's flicker moves down the picture in them; fewer than
    /// `FlickerSeries`' 16 keep each band's mean steady and the search short.
    static let bandCount = 8
    /// Seconds between searches (at least).
    static let interval = 0.5
    /// Seconds the meter keeps working after the last document asked for.
    static let demandSeconds = 10.0

    /// The pictures' shape the series is measured for.
    struct Shape: Equatable {
        let format: PixelFormat
        let width: Int
        let height: Int
    }

    /// The pictures measured, in a ring allocated once per shape: the capture thread keeps no
    /// memory of its own between the frames' buffers (a series of arrays that it grew and copied
    /// kept glibc's arena from reusing those buffers: 50 MiB more at 720p120).
    struct State {
        var shape: Shape?
        /// How pictures of that shape are read (nil: they cannot be).
        var levels: SampleLevels?
        var step = 2
        var bandCount = 1
        /// The pictures' times and their bands' means (`bandCount` each), oldest at `next` once full.
        var times: [Double] = []
        var means: [Double] = []
        /// The means of each picture's brighter and darker half (`BandMeans.halves`), two each.
        var halves: [Double] = []
        var next = 0
        var count = 0
        /// Pictures added so far (a search is not repeated without new ones).
        var added = 0

        /// The latest picture's time.
        var last: Double? { count > 0 ? times[(next + times.count - 1) % times.count] : nil }

        /// Keeps `bands` (`bandCount` of them) measured at `time`, over the oldest when full.
        mutating func append(_ bands: [Double], halves two: (upper: Double, lower: Double)?, time: Double) {
            times[next] = time
            for (b, mean) in bands.enumerated() { means[next * bandCount + b] = mean }
            // A picture without halves measured leaves both 0: the series then has none.
            halves[2 * next] = two?.upper ?? 0
            halves[2 * next + 1] = two?.lower ?? 0
            next = (next + 1) % times.count
            count = min(count + 1, times.count)
            added += 1
        }
    }

    /// A copy of the ring's pictures, taken under the lock (two copies of memory) and laid out as a
    /// series outside it.
    struct Snapshot {
        let times: [Double]
        let means: [Double]
        let halves: [Double]
        let next: Int
        let count: Int
        let bandCount: Int
        let added: Int

        init(_ s: State) {
            times = s.times.withUnsafeBufferPointer { Array($0) }
            means = s.means.withUnsafeBufferPointer { Array($0) }
            halves = s.halves.withUnsafeBufferPointer { Array($0) }
            (next, count, bandCount, added) = (s.next, s.count, s.bandCount, s.added)
        }

        /// The pictures of the last `span` seconds, at least `minimumFrames` of them, oldest first.
        var series: FlickerSeries {
            var series = FlickerSeries(bandCount: bandCount)
            let order = (0..<count).map { (next + times.count - count + $0) % times.count }
            guard let newest = order.last.map({ times[$0] }) else { return series }
            let recent = order.filter { times[$0] >= newest - FlickerMeter.span }.count
            for i in order.suffix(max(recent, FlickerMeter.minimumFrames)) {
                let bands = Array(means[(i * bandCount)..<((i + 1) * bandCount)])
                let two = halves[2 * i] > 0 ? (upper: halves[2 * i], lower: halves[2 * i + 1]) : nil
                series.add(BandMeans(bands: bands, chroma: nil, halves: two), time: times[i])
            }
            return series
        }
    }

    private let state = Locked(State())
    private let found = Locked<(reading: Reading, added: Int)>((.unknown, 0))
    /// Monotonic µs until which the meter works (`want()`).
    private let wantedUntil = Atomic<Int64>(0)

    public init() {}

    /// The latest reading.
    public var reading: Reading { found.withLock { $0.reading } }

    /// Someone asked for the reading: the meter works for `demandSeconds` more.
    public func want() {
        wantedUntil.store(Clock.monotonicMicroseconds + Int64(Self.demandSeconds * 1e6), ordering: .relaxed)
    }

    var isWanted: Bool { Clock.monotonicMicroseconds < wantedUntil.load(ordering: .relaxed) }

    /// Measures `frame` captured at `time` (seconds) and keeps it: on the capture thread, once per
    /// picture, in order. A new picture format or size, time going back or a long gap starts the
    /// series again.
    public func add(_ frame: Frame, time: Double) {
        guard isWanted, let format = frame.pixelFormat else { return }
        let shape = Shape(format: format, width: frame.width, height: frame.height)
        let (levels, step, bands) = state.withLock { s in
            if s.shape != shape { s.reshape(shape) }
            return (s.levels, s.step, s.bandCount)
        }
        guard let levels else { return }
        // Measured outside the lock: `estimate()` takes it only to copy the ring.
        let means = BandMeans(frame, levels: levels, count: bands, step: step, chroma: false)
        state.withLock { s in
            guard s.shape == shape else { return }
            if let last = s.last, time <= last || time - last > Self.longestGap { s.count = 0 }
            s.append(means.bands, halves: means.halves, time: time)
        }
    }

    /// The pictures a search would read now.
    var kept: FlickerSeries { state.withLock { Snapshot($0) }.series }

    /// Searches every `interval` seconds, waiting with `pause(seconds)` until it returns false (the
    /// preview closed); less often when a search costs more than a twentieth of the time between
    /// them (an unoptimised build: 130 ms at 240 fps, where an optimised one takes 6 ms), so the
    /// meter never takes much of a core.
    public func run(pausing pause: (Double) -> Bool) {
        var wait = Self.interval
        while pause(wait) {
            let start = Clock.monotonicMicroseconds
            estimate()
            wait = max(Self.interval, 20 * Double(Clock.monotonicMicroseconds - start) / 1e6)
        }
    }

    /// Searches the pictures kept for flicker and publishes the reading (unless no picture came
    /// since the last search); forgets them and the reading while nobody asks.
    public func estimate() {
        guard isWanted else {
            state.withLock { $0.count = 0 }
            found.withLock { $0.reading = .unknown }
            return
        }
        let snapshot = state.withLock { Snapshot($0) }
        guard found.withLock({ $0.added != snapshot.added }) else { return }
        let series = snapshot.series
        let reading: Reading
        if let first = series.times.first, let last = series.times.last, let rate = series.frameRate,
            series.count >= Self.minimumFrames, last - first + 1 / rate >= Self.minimumSpan
        {
            reading =
                FlickerAnalysis.detect(series, frequencies: Self.frequencies).map {
                    .flicker(frequency: $0.measuredFrequency, depth: $0.depth, banded: $0.isBanded)
                } ?? .none
        } else {
            reading = .unknown
        }
        found.withLock { $0 = (reading, snapshot.added) }
    }

    /// `/status`' `flicker`: `{"frequency": Hz, "depth": fraction, "bands": Bool}`, `"none"`, or
    /// null while not measured.
    public var json: JSONValue {
        switch reading {
        case .unknown: .null
        case .none: .string("none")
        case .flicker(let frequency, let depth, let banded):
            .object([
                ("frequency", .rounded(frequency, digits: 1)), ("depth", .rounded(depth)), ("bands", .bool(banded)),
            ])
        }
    }
}

extension FlickerMeter.State {
    /// Pictures of a new shape: how to read them, and a new ring.
    mutating func reshape(_ shape: FlickerMeter.Shape) {
        self.shape = shape
        levels = SampleLevels(format: shape.format, width: shape.width, height: shape.height)
        let area = Double(shape.width * shape.height) / Double(FlickerMeter.samplesPerPicture)
        step = max(2, Int(area.squareRoot().rounded(.up)))
        let rows = (shape.height + step - 1) / step
        bandCount = max(1, min(FlickerMeter.bandCount, rows / 4))
        times = [Double](repeating: 0, count: FlickerMeter.maximumFrames)
        means = [Double](repeating: 0, count: FlickerMeter.maximumFrames * bandCount)
        halves = [Double](repeating: 0, count: FlickerMeter.maximumFrames * 2)
        next = 0
        count = 0
    }
}
