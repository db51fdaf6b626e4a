import HFRCapture
import HFRMedia

/// `--gain auto`, `--gain 40`, `--white-balance 5600`: automatic or a value in the control's units.
struct ControlChoice: ArgumentValue, Equatable {
    var setting: CameraControls.Setting

    init?(argument: String) {
        if argument == "auto" {
            setting = .auto
        } else if let v = Int64(argument) {
            setting = .value(v)
        } else {
            return nil
        }
    }

    static var expectation: String { "auto or an integer" }
}

/// `--exposure auto`, `1/500`, `2ms`, `500us`, a bare number in the driver's 100 µs units, or
/// `antiflicker[=50|60]` (no fixed exposure: one chosen for the frame interval, or the camera's
/// power_line_frequency control).
struct ExposureChoice: ArgumentValue, Equatable {
    var setting: CameraControls.Setting?
    var antiFlicker: AntiFlicker?

    init?(argument: String) {
        if argument == "auto" {
            setting = .auto
            return
        }
        if argument == "antiflicker" {
            antiFlicker = AntiFlicker()
            return
        }
        if argument.hasPrefix("antiflicker=") {
            guard let hz = Int(argument.dropFirst("antiflicker=".count)), AntiFlicker.frequencies.contains(hz) else {
                return nil
            }
            antiFlicker = AntiFlicker(mains: hz)
            return
        }
        let units: [(String, Rational)] = [
            ("ms", Rational(1, 1000)), ("us", Rational(1, 1_000_000)), ("s", Rational(1)),
        ]
        var seconds: Rational?
        if argument.contains("/") {
            seconds = Rational(parsing: argument)
        } else if let (suffix, scale) = units.first(where: { argument.hasSuffix($0.0) }) {
            seconds = Rational(parsing: String(argument.dropLast(suffix.count))).map { $0 * scale }
        } else if let v = Int64(argument) {
            setting = .value(v)
            return
        }
        // exposure_time_absolute counts 100 µs.
        guard let seconds, seconds > Rational(0) else { return nil }
        setting = .value(max(1, (seconds * Rational(10_000)).rounded()))
    }

    static var expectation: String {
        "auto, antiflicker, antiflicker=50, antiflicker=60, a time (1/500, 2ms, 500us) or a value in 100 µs units"
    }
}

/// `--control name=value` (v4l2-ctl's control names).
extension CameraControls.Assignment {
    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        self.init(key: String(parts[0]), value: String(parts[1]))
    }
}
