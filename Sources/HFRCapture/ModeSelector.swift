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
    /// The modes of this format: each discrete size, and for stepwise sizes the largest one plus
    /// `extra` sizes (the one asked for) when they fall inside, with their intervals from `device`.
    public func modes(including extra: [(width: Int, height: Int)] = [], device: V4L2Device?) -> [V4L2Mode] {
        var result: [V4L2Mode] = []
        for (size, intervals) in sizes {
            let largest = size.largest
            result.append(V4L2Mode(format: format, width: largest.width, height: largest.height, intervals: intervals))
            if case .discrete = size { continue }
            for e in extra where size.contains(width: e.width, height: e.height) && e != largest {
                let i = (try? device?.frameIntervals(format, width: e.width, height: e.height)) ?? intervals
                result.append(V4L2Mode(format: format, width: e.width, height: e.height, intervals: i))
            }
        }
        return result
    }
}
