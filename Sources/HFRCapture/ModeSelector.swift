import HFRMedia

/// Picks the capture mode for a request, the way AVFoundation's high-frame-rate recipe does:
/// the highest rate first, then the preferred pixel format (4:2:0, packed 4:2:2, MJPEG — see
/// `V4L2PixelFormat.preferenceRank`), then the larger size. Pure logic over the enumerated modes.
public struct ModeSelector: Sendable {
    /// What the user asked for.
    public struct Request: Sendable {
        /// nil = the highest rate the device offers.
        public var rate: Rational?
        public var size: (width: Int, height: Int)?
        public var format: V4L2PixelFormat?

        public init(rate: Rational?, size: (width: Int, height: Int)? = nil, format: V4L2PixelFormat? = nil) {
            self.rate = rate
            self.size = size
            self.format = format
        }
    }

    /// The chosen mode and the exact rate to set.
    public struct Choice: Sendable, Equatable {
        public var mode: V4L2Mode
        public var rate: Rational
    }

    /// Why nothing matches, with the alternatives, as one readable sentence.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let modes: [V4L2Mode]

    public init(modes: [V4L2Mode]) { self.modes = modes }

    public func select(_ request: Request) throws(Failure) -> Choice {
        let usable = modes.filter { $0.format.preferenceRank != nil && !$0.intervals.isEmpty }
        guard !usable.isEmpty else {
            let formats = Set(modes.map(\.format.fourCC)).sorted().joined(separator: ", ")
            throw Failure(description: "offers no pixel format hfr can record (it has: \(formats))")
        }
        var candidates = usable
        if let format = request.format {
            candidates = candidates.filter { $0.format == format }
            guard !candidates.isEmpty else {
                throw Failure(
                    description: "has no \(format.fourCC) mode (formats: \(ModeSelector.formats(of: usable)))")
            }
        }
        if let size = request.size {
            let sized = candidates.filter { $0.width == size.width && $0.height == size.height }
            guard !sized.isEmpty else {
                throw Failure(
                    description:
                        "has no \(size.width)x\(size.height) mode (sizes: \(ModeSelector.sizes(of: candidates)))")
            }
            candidates = sized
        }
        guard let rate = request.rate else {
            let best = candidates.max { ModeSelector.isWorse($0, than: $1, at: $0.maxRate, $1.maxRate) }!
            return Choice(mode: best, rate: best.maxRate)
        }
        let reaching = candidates.filter { $0.offers(rate) }
        if let best = reaching.max(by: { ModeSelector.isWorse($0, than: $1, at: rate, rate) }) {
            return Choice(mode: best, rate: rate)
        }
        throw Failure(description: unreachable(rate, request: request, candidates: candidates, usable: usable))
    }

    /// The ordering: rate, then format preference, then area.
    static func isWorse(_ a: V4L2Mode, than b: V4L2Mode, at rateA: Rational, _ rateB: Rational) -> Bool {
        if rateA != rateB { return rateA < rateB }
        let rankA = a.format.preferenceRank!
        let rankB = b.format.preferenceRank!
        if rankA != rankB { return rankA > rankB }
        return a.width * a.height < b.width * b.height
    }

    /// "640x480 reaches 25 fps at most (NV12); 30 fps: 320x180, 640x360 (NV12)".
    private func unreachable(_ rate: Rational, request: Request, candidates: [V4L2Mode], usable: [V4L2Mode])
        -> String
    {
        let fps = "\(ModeSelector.rateText(rate)) fps"
        let best = candidates.max { ModeSelector.isWorse($0, than: $1, at: $0.maxRate, $1.maxRate) }!
        var what = request.size.map { "\($0.width)x\($0.height) " } ?? ""
        if let format = request.format { what += "in \(format.fourCC) " }
        var text =
            "cannot record \(what)at \(fps): "
            + "\(best.width)x\(best.height) reaches \(ModeSelector.rateText(best.maxRate)) fps at most "
            + "(\(best.format.fourCC))"
        let elsewhere = usable.filter { $0.offers(rate) && (request.format == nil || $0.format == request.format) }
        if elsewhere.isEmpty {
            let top = usable.map(\.maxRate).max()!
            text += "; no mode reaches \(fps) (the highest is \(ModeSelector.rateText(top)) fps)"
        } else {
            let preferred = elsewhere.min { $0.format.preferenceRank! < $1.format.preferenceRank! }!.format
            let sizes = ModeSelector.sizes(of: elsewhere.filter { $0.format == preferred })
            text += "; \(fps) is offered at \(sizes) (\(preferred.fourCC))"
        }
        return text
    }

    static func sizes(of modes: [V4L2Mode]) -> String {
        var seen: [String] = []
        for m in modes.sorted(by: { $0.width * $0.height < $1.width * $1.height }) {
            let s = "\(m.width)x\(m.height)"
            if !seen.contains(s) { seen.append(s) }
        }
        return seen.joined(separator: ", ")
    }

    static func formats(of modes: [V4L2Mode]) -> String {
        var seen: [String] = []
        for m in modes where !seen.contains(m.format.fourCC) { seen.append(m.format.fourCC) }
        return seen.joined(separator: ", ")
    }

    /// 60, 12.5, 29.97 (60000/1001 shown to two decimals; exact in --json).
    public static func rateText(_ rate: Rational) -> String {
        if rate.denominator == 1 { return "\(rate.numerator)" }
        let value = rate.doubleValue
        let hundredths = (value * 100).rounded()
        if abs(value * 100 - hundredths) < 1e-9 {
            var s = String(hundredths / 100)
            if s.hasSuffix(".0") { s.removeLast(2) }
            return s
        }
        return DecimalText.fixed(value, digits: 2)
    }
}

extension V4L2FormatModes {
    /// The sizes a stepwise or continuous range is tried at: AVFoundation's preset heights (2160, 1080,
    /// 720, 480) in 16:9, then in 4:3. A range up to 16384x8640 (vivid's HDMI input) is otherwise
    /// recorded at its largest size, which no encoder takes and no one wants.
    public static let presetSizes: [(width: Int, height: Int)] = [
        (3840, 2160), (1920, 1080), (1280, 720), (854, 480), (2880, 2160), (1440, 1080), (960, 720), (640, 480),
    ]

    /// The preset sizes inside `size` (none for a discrete size), in `presetSizes` order.
    public static func presetSizes(in size: V4L2FrameSize) -> [(width: Int, height: Int)] {
        if case .discrete = size { return [] }
        return presetSizes.filter { size.contains(width: $0.width, height: $0.height) }
    }

    /// The modes of this format, with intervals from `device` (`VIDIOC_ENUM_FRAMEINTERVALS` at each
    /// size; where it does not answer, those of the largest size).
    public func modes(including extra: [(width: Int, height: Int)] = [], device: V4L2Device?) -> [V4L2Mode] {
        let format = format
        return modes(including: extra) { w, h in try? device?.frameIntervals(format, width: w, height: h) }
    }

    /// The modes of this format: each discrete size; in a stepwise or continuous range the preset
    /// sizes inside it (`presetSizes`) and the `extra` sizes asked for, each with the intervals
    /// `intervals` gives at that size (nil: those of the largest size). The range's largest size is
    /// a mode only when no preset inside it lists a rate, or when it is faster than all of them:
    /// so `--fps max` takes the largest preset that reaches the top rate.
    public func modes(
        including extra: [(width: Int, height: Int)] = [],
        intervals lookup: (_ width: Int, _ height: Int) -> [V4L2FrameInterval]?
    ) -> [V4L2Mode] {
        var result: [V4L2Mode] = []
        for (size, intervals) in sizes {
            let largest = size.largest
            let atLargest = V4L2Mode(format: format, width: largest.width, height: largest.height, intervals: intervals)
            if case .discrete = size {
                result.append(atLargest)
                continue
            }
            var inRange: [V4L2Mode] = []
            let presets = V4L2FormatModes.presetSizes(in: size)
            for s in presets + extra where size.contains(width: s.width, height: s.height) && s != largest {
                guard !inRange.contains(where: { $0.width == s.width && $0.height == s.height }) else { continue }
                let i = lookup(s.width, s.height) ?? intervals
                inRange.append(V4L2Mode(format: format, width: s.width, height: s.height, intervals: i))
            }
            let presetRate = inRange.filter { m in presets.contains { $0 == (m.width, m.height) } }.map(\.maxRate).max()
            let isNamed = (presets + extra).contains { $0 == largest }
            if isNamed || presetRate.map({ atLargest.maxRate > $0 }) ?? true {
                result.append(atLargest)
            }
            result += inRange
        }
        return result
    }
}
