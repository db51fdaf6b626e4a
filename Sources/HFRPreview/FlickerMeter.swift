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
    /// Seconds the meter keeps working after the last document asked for.
    static let demandSeconds = 10.0

    /// The pictures' shape the series is measured for.
    struct Shape: Equatable {
        let format: PixelFormat
        let width: Int
        let height: Int
    }

    struct State {
        var shape: Shape?
        /// How pictures of that shape are read (nil: they cannot be).
        var levels: SampleLevels?
        var step = 2
        var series = FlickerSeries(bandCount: 1)
        /// Pictures added so far (a search is not repeated without new ones).
        var added = 0
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
            return (s.levels, s.step, s.series.bandCount)
        }
        guard let levels else { return }
        // Measured outside the lock: `estimate()` takes it only to copy the series.
        let means = BandMeans(frame, levels: levels, count: bands, step: step, chroma: false)
        state.withLock { s in
            guard s.shape == shape else { return }
            if let last = s.series.times.last, time <= last || time - last > Self.longestGap {
                s.series = FlickerSeries(bandCount: bands)
            }
            s.series.add(means, time: time)
            s.added += 1
            let old = s.series.times.prefix { $0 < time - Self.span }.count
            s.series.keepLast(min(Self.maximumFrames, max(Self.minimumFrames, s.series.count - old)))
        }
    }

    /// Searches the pictures kept for flicker and publishes the reading (unless no picture came
    /// since the last search); forgets them and the reading while nobody asks.
    public func estimate() {
        guard isWanted else {
            state.withLock { $0.series = FlickerSeries(bandCount: $0.series.bandCount) }
            found.withLock { $0.reading = .unknown }
            return
        }
        let (series, added) = state.withLock { ($0.series, $0.added) }
        guard found.withLock({ $0.added != added }) else { return }
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
        found.withLock { $0 = (reading, added) }
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
    /// Pictures of a new shape: how to read them, and a new series.
    mutating func reshape(_ shape: FlickerMeter.Shape) {
        self.shape = shape
        levels = SampleLevels(format: shape.format, width: shape.width, height: shape.height)
        let area = Double(shape.width * shape.height) / Double(FlickerMeter.samplesPerPicture)
        step = max(2, Int(area.squareRoot().rounded(.up)))
        let rows = (shape.height + step - 1) / step
        series = FlickerSeries(bandCount: max(1, min(FlickerMeter.bandCount, rows / 4)))
    }
}
