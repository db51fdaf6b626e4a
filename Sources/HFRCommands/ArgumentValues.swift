import HFRMedia

/// `--fps 120`, `--fps 60000/1001`, `--fps 59.94`, or `--fps max`.
public enum FrameRateChoice: ArgumentValue, Equatable, Sendable {
    case max
    case exactly(Rational)

    public init?(argument: String) {
        if argument == "max" {
            self = .max
        } else if let r = Rational(parsing: argument), r > Rational(0) {
            self = .exactly(r)
        } else {
            return nil
        }
    }

    public static var expectation: String { "a frame rate such as 120, 60000/1001 or max" }
}

/// `--size 1280x720`.
public struct FrameSize: ArgumentValue, Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public static var expectation: String { "WIDTHxHEIGHT, e.g. 1280x720" }

    /// AVFoundation's session presets by height; other heights get a 16:9 width.
    public static func preset(height: Int) -> FrameSize {
        let widths = [2160: 3840, 1080: 1920, 720: 1280, 480: 640]
        return FrameSize(width: widths[height] ?? ((height * 16 / 9 + 1) / 2 * 2), height: height)
    }
}

/// `--bitrate 8M`, `800k`, `8000000`.
public struct Bitrate: ArgumentValue, Equatable, Sendable {
    public var bitsPerSecond: Int

    public init?(argument: String) {
        let scale: [Character: Int] = ["k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000]
        var text = argument
        var factor = 1
        if let last = text.last, let s = scale[last] {
            factor = s
            text.removeLast()
        }
        guard let value = Rational(parsing: text), value > Rational(0) else { return nil }
        bitsPerSecond = Int((value * Rational(Int64(factor))).rounded())
        guard bitsPerSecond >= 10_000 else { return nil }
    }

    public static var expectation: String { "bits per second, e.g. 8M or 800k" }
}

/// `--duration 10`, `5s`, `2.5s`, `500ms`, `1:30`, `01:02:03.5`: exact positive seconds
/// (`Rational(parsingTime:)`, the one time syntax of every option).
public struct Duration: ArgumentValue, Equatable, Sendable {
    public var seconds: Rational

    public init?(argument: String) {
        guard let value = Rational(parsingTime: argument), value > Rational(0) else { return nil }
        seconds = value
    }

    public static var expectation: String { "a time: " + Rational.timeForms }
}
