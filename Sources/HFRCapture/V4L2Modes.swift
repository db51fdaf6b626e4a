internal import CV4L2
import HFRMedia

/// A frame size as V4L2 enumerates it.
public enum V4L2FrameSize: Sendable, Equatable {
    case discrete(width: Int, height: Int)
    /// Any size from min to max in steps; `continuous` is stepwise with a step of 1.
    case stepwise(minWidth: Int, maxWidth: Int, stepWidth: Int, minHeight: Int, maxHeight: Int, stepHeight: Int)
    case continuous(minWidth: Int, maxWidth: Int, minHeight: Int, maxHeight: Int)

    /// Whether `width`x`height` is one of the sizes.
    public func contains(width: Int, height: Int) -> Bool {
        switch self {
        case .discrete(let w, let h): return w == width && h == height
        case .stepwise(let minW, let maxW, let stepW, let minH, let maxH, let stepH):
            return (minW...maxW).contains(width) && (minH...maxH).contains(height)
                && (width - minW) % max(stepW, 1) == 0 && (height - minH) % max(stepH, 1) == 0
        case .continuous(let minW, let maxW, let minH, let maxH):
            return (minW...maxW).contains(width) && (minH...maxH).contains(height)
        }
    }

    /// The largest size.
    public var largest: (width: Int, height: Int) {
        switch self {
        case .discrete(let w, let h): return (w, h)
        case .stepwise(_, let w, _, _, let h, _), .continuous(_, let w, _, let h): return (w, h)
        }
    }
}

/// Frame intervals (seconds per frame, exact) as V4L2 enumerates them; a rate is its reciprocal.
public enum V4L2FrameInterval: Sendable, Equatable {
    case discrete(Rational)
    case stepwise(min: Rational, max: Rational, step: Rational)
    case continuous(min: Rational, max: Rational)

    /// The highest frame rate reachable.
    public var maxRate: Rational {
        switch self {
        case .discrete(let i): return i.reciprocal
        case .stepwise(let min, _, _), .continuous(let min, _): return min.reciprocal
        }
    }

    /// Whether the frame rate `rate` is exactly one of these intervals.
    public func offers(_ rate: Rational) -> Bool {
        let interval = rate.reciprocal
        switch self {
        case .discrete(let i): return i == interval
        case .continuous(let min, let max): return min <= interval && interval <= max
        case .stepwise(let min, let max, let step):
            guard min <= interval, interval <= max else { return false }
            guard step > Rational(0) else { return interval == min }
            let steps = (interval - min) / step
            return steps.denominator == 1
        }
    }
}

extension V4L2FrameInterval {
    /// A driver's frame interval as the exact rate it stands for. Drivers derive broadcast rates
    /// from pixel clocks (vivid's 720p at 1000/1001: 12375/741758 s, 59.94004 fps); a rate within
    /// one part per million of N or of N×1000/1001 is read as exactly that.
    static func interval(_ f: v4l2_fract) -> Rational { interval(numerator: f.numerator, denominator: f.denominator) }

    /// `numerator/denominator` seconds per frame, read as `interval(_:)` reads a driver's fraction.
    public static func interval(numerator: UInt32, denominator: UInt32) -> Rational {
        let interval = Rational(Int64(numerator), Int64(max(denominator, 1)))
        guard numerator > 0, denominator > 0 else { return interval }
        let rate = interval.reciprocal.doubleValue
        let whole = rate.rounded()
        if whole > 0, abs(rate - whole) <= rate * 1e-6 { return Rational(1, Int64(whole)) }
        let ntsc = (rate * 1.001).rounded()
        if ntsc > 0, abs(rate - ntsc * 1000 / 1001) <= rate * 1e-6 { return Rational(1001, Int64(ntsc) * 1000) }
        return interval
    }
}

/// One pixel format × frame size with its frame intervals: a mode, in AVFoundation's terms a format
/// with its `videoSupportedFrameRateRanges`.
public struct V4L2Mode: Sendable, Equatable {
    public var format: V4L2PixelFormat
    public var width: Int
    public var height: Int
    public var intervals: [V4L2FrameInterval]

    public init(format: V4L2PixelFormat, width: Int, height: Int, intervals: [V4L2FrameInterval]) {
        self.format = format
        self.width = width
        self.height = height
        self.intervals = intervals
    }

    /// The highest rate of the mode (0 when the driver lists no interval).
    public var maxRate: Rational { intervals.map(\.maxRate).max() ?? Rational(0) }

    public func offers(_ rate: Rational) -> Bool { intervals.contains { $0.offers(rate) } }
}

/// Everything a device offers for one pixel format.
public struct V4L2FormatModes: Sendable {
    public var format: V4L2PixelFormat
    /// The driver's name for it (`Y/UV 4:2:0`).
    public var name: String
    public var isCompressed: Bool
    /// Each enumerated size with the intervals the driver gives for it (for stepwise and continuous
    /// sizes: the intervals at the largest size).
    public var sizes: [(size: V4L2FrameSize, intervals: [V4L2FrameInterval])]
}

extension V4L2Device {
    /// Every pixel format × frame size × frame interval of the capture queue (ENUM_FMT →
    /// ENUM_FRAMESIZES → ENUM_FRAMEINTERVALS).
    public func formatModes() throws(V4L2Failure) -> [V4L2FormatModes] {
        var result: [V4L2FormatModes] = []
        var desc = v4l2_fmtdesc()
        desc.type = bufferType
        while try enumerate(.enumFmt, &desc) {
            let format = V4L2PixelFormat(code: desc.pixelformat)
            var sizes: [(V4L2FrameSize, [V4L2FrameInterval])] = []
            for size in try frameSizes(format) {
                let largest = size.largest
                sizes.append((size, try frameIntervals(format, width: largest.width, height: largest.height)))
            }
            result.append(
                V4L2FormatModes(
                    format: format, name: V4L2Device.string(desc.description),
                    isCompressed: desc.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0, sizes: sizes))
            desc.index += 1
        }
        return result
    }

    /// The sizes of one pixel format.
    public func frameSizes(_ format: V4L2PixelFormat) throws(V4L2Failure) -> [V4L2FrameSize] {
        var sizes: [V4L2FrameSize] = []
        var e = v4l2_frmsizeenum()
        e.pixel_format = format.code
        while try enumerate(.enumFrameSizes, &e) {
            switch e.type {
            case V4L2_FRMSIZE_TYPE_DISCRETE.rawValue:
                sizes.append(.discrete(width: Int(e.discrete.width), height: Int(e.discrete.height)))
            case V4L2_FRMSIZE_TYPE_STEPWISE.rawValue:
                let s = e.stepwise
                sizes.append(
                    .stepwise(
                        minWidth: Int(s.min_width), maxWidth: Int(s.max_width), stepWidth: Int(s.step_width),
                        minHeight: Int(s.min_height), maxHeight: Int(s.max_height), stepHeight: Int(s.step_height)))
                return sizes
            default:
                let s = e.stepwise
                sizes.append(
                    .continuous(
                        minWidth: Int(s.min_width), maxWidth: Int(s.max_width), minHeight: Int(s.min_height),
                        maxHeight: Int(s.max_height)))
                return sizes
            }
            e.index += 1
        }
        return sizes
    }

    /// The frame intervals of one pixel format at one size.
    public func frameIntervals(_ format: V4L2PixelFormat, width: Int, height: Int) throws(V4L2Failure)
        -> [V4L2FrameInterval]
    {
        var intervals: [V4L2FrameInterval] = []
        var e = v4l2_frmivalenum()
        e.pixel_format = format.code
        e.width = UInt32(width)
        e.height = UInt32(height)
        let exact: (v4l2_fract) -> Rational = V4L2FrameInterval.interval
        while try enumerate(.enumFrameIntervals, &e) {
            switch e.type {
            case V4L2_FRMIVAL_TYPE_DISCRETE.rawValue:
                intervals.append(.discrete(exact(e.discrete)))
            case V4L2_FRMIVAL_TYPE_STEPWISE.rawValue:
                let s = e.stepwise
                let step = Rational(Int64(s.step.numerator), Int64(max(s.step.denominator, 1)))
                intervals.append(.stepwise(min: exact(s.min), max: exact(s.max), step: step))
                return intervals
            default:
                let s = e.stepwise
                intervals.append(.continuous(min: exact(s.min), max: exact(s.max)))
                return intervals
            }
            e.index += 1
        }
        return intervals
    }
}
