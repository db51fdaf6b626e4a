internal import CV4L2
import HFRMedia

/// `--exposure`, `--focus`, `--white-balance`, `--gain` and `--control name=value`, mapped to the
/// standard V4L2 control ids and applied before streaming.
public struct CameraControls: Sendable, Equatable {
    /// Automatic, or a fixed value in the control's own units.
    public enum Setting: Sendable, Equatable {
        case auto
        case value(Int64)
    }

    /// Exposure in the units of `exposure_time_absolute` (100 µs).
    public var exposure: Setting?
    /// `--exposure antiflicker[=HZ]`: the power_line_frequency control, or an exposure of whole
    /// flicker periods chosen for the frame interval (instead of `exposure`).
    public var antiFlicker: AntiFlicker?
    public var focus: Setting?
    /// Colour temperature in kelvin.
    public var whiteBalance: Setting?
    public var gain: Setting?
    /// Any control by its v4l2-ctl name: `("percentage_of_dropped_buffers", "10")`.
    public var named: [Assignment]

    public struct Assignment: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(
        exposure: Setting? = nil, focus: Setting? = nil, whiteBalance: Setting? = nil, gain: Setting? = nil,
        named: [Assignment] = [], antiFlicker: AntiFlicker? = nil
    ) {
        self.exposure = exposure
        self.antiFlicker = antiFlicker
        self.focus = focus
        self.whiteBalance = whiteBalance
        self.gain = gain
        self.named = named
    }

    /// A control the device lacks, a value out of range, or a refused setting.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public let errno: Int32?
    }

    /// One standard setting: the option, its automatic switch and its value control.
    struct Standard {
        let option: String
        let auto: (id: UInt32, on: Int32, off: Int32)?
        let value: UInt32
        let setting: Setting?
    }

    /// What applying the controls chose and warned of.
    public struct Outcome: Sendable, Equatable {
        /// Automatic exposure that can lengthen frames, an exposure longer than a frame.
        public var warnings: [String]
        /// What `--exposure antiflicker` chose, set and read back.
        public var antiFlicker: AntiFlicker.Choice?
    }

    /// Applies every setting (`antiFlicker` last, for the frame interval); returns what it chose
    /// and warnings.
    public func apply(to device: V4L2Device, frameInterval: Rational) throws(Failure) -> Outcome {
        let controls: [V4L2Control]
        do {
            controls = try device.controls()
        } catch {
            throw Failure(description: error.description, errno: error.errno)
        }
        // Each option: its automatic-mode control (value for on, for off) and its manual value control.
        let standards = [
            Standard(
                option: "exposure", auto: (HFR_V4L2_CID_EXPOSURE_AUTO, 3, 1), value: HFR_V4L2_CID_EXPOSURE_ABSOLUTE,
                setting: exposure),
            Standard(
                option: "focus", auto: (HFR_V4L2_CID_FOCUS_AUTO, 1, 0), value: HFR_V4L2_CID_FOCUS_ABSOLUTE,
                setting: focus),
            Standard(
                option: "white-balance", auto: (HFR_V4L2_CID_AUTO_WHITE_BALANCE, 1, 0),
                value: HFR_V4L2_CID_WHITE_BALANCE_TEMPERATURE, setting: whiteBalance),
            Standard(option: "gain", auto: (HFR_V4L2_CID_AUTOGAIN, 1, 0), value: HFR_V4L2_CID_GAIN, setting: gain),
        ].filter { $0.setting != nil }
        let available = controls.filter { !$0.isReadOnly }.map(\.key).joined(separator: ", ")
        for s in standards {
            try apply(s, controls: controls, available: available, device: device)
        }
        for assignment in named {
            guard let control = controls.first(where: { $0.key == assignment.key }) else {
                throw Failure(
                    description: "\(device.path) has no control '\(assignment.key)' (it has: \(available))", errno: nil)
            }
            try set(control, text: assignment.value, device: device)
        }
        let choice = try antiFlicker.map { a throws(Failure) in
            try apply(a, controls: controls, device: device, frameInterval: frameInterval)
        }
        return Outcome(
            warnings: warnings(controls: controls, device: device, frameInterval: frameInterval), antiFlicker: choice)
    }

    private func apply(_ s: Standard, controls: [V4L2Control], available: String, device: V4L2Device) throws(Failure) {
        let autoControl = s.auto.flatMap { a in controls.first { $0.id == a.id } }
        let valueControl = controls.first { $0.id == s.value }
        switch s.setting {
        case nil: return
        case .auto?:
            guard let autoControl, let a = s.auto else {
                throw Failure(
                    description: "\(device.path) has no automatic \(s.option) control (it has: \(available))",
                    errno: nil)
            }
            // Exposure: "auto" is aperture priority on most UVC cameras, full auto on the rest.
            let on = autoControl.maximum >= Int64(a.on) ? a.on : Int32(autoControl.minimum)
            try write(autoControl, on, device: device)
        case .value(let v)?:
            guard let valueControl else {
                throw Failure(
                    description: "\(device.path) has no \(s.option) control (it has: \(available))", errno: nil)
            }
            guard (valueControl.minimum...valueControl.maximum).contains(v) else {
                throw Failure(
                    description:
                        "\(device.path): \(s.option) \(v) is out of range \(valueControl.minimum)…\(valueControl.maximum)",
                    errno: nil)
            }
            if let autoControl, let a = s.auto { try write(autoControl, a.off, device: device) }
            try write(valueControl, Int32(v), device: device)
        }
    }

    private func set(_ control: V4L2Control, text: String, device: V4L2Device) throws(Failure) {
        guard control.isSimple, !control.isReadOnly else {
            throw Failure(description: "\(device.path): control '\(control.key)' cannot be set", errno: nil)
        }
        let value: Int64?
        switch text.lowercased() {
        case "true", "on", "yes": value = 1
        case "false", "off", "no": value = 0
        default: value = Int64(text)
        }
        guard let value, control.isButton || (control.minimum...control.maximum).contains(value) else {
            throw Failure(
                description:
                    "\(device.path): invalid value '\(text)' for '\(control.key)' (\(control.minimum)…\(control.maximum))",
                errno: nil)
        }
        try write(control, Int32(truncatingIfNeeded: value), device: device)
    }

    func write(_ control: V4L2Control, _ value: Int32, device: V4L2Device) throws(Failure) {
        do {
            try device.set(control, to: value)
        } catch {
            throw Failure(description: error.description, errno: error.errno)
        }
    }

    /// The value the driver holds for `control`.
    func read(_ control: V4L2Control, device: V4L2Device) throws(Failure) -> Int64 {
        do {
            return Int64(try device.value(of: control))
        } catch {
            throw Failure(description: error.description, errno: error.errno)
        }
    }

    /// Automatic exposure may hold the shutter open longer than a frame lasts (UVC's "dynamic
    /// framerate"); a fixed exposure longer than the interval does the same.
    private func warnings(controls: [V4L2Control], device: V4L2Device, frameInterval: Rational) -> [String] {
        func current(_ id: UInt32) -> (V4L2Control, Int32)? {
            guard let c = controls.first(where: { $0.id == id }), let v = try? device.value(of: c) else { return nil }
            return (c, v)
        }
        let interval = "1/\(ModeSelector.rateText(frameInterval.reciprocal)) s"
        guard let (_, mode) = current(HFR_V4L2_CID_EXPOSURE_AUTO) else { return [] }
        if mode == 1 {
            if let (_, v) = current(HFR_V4L2_CID_EXPOSURE_ABSOLUTE), Rational(Int64(v), 10_000) > frameInterval {
                return ["exposure \(v)×100 µs is longer than the frame interval \(interval): the camera will slow down"]
            }
            return []
        }
        if let (c, priority) = current(HFR_V4L2_CID_EXPOSURE_AUTO_PRIORITY), priority != 0 {
            return [
                "automatic exposure may lengthen frames beyond \(interval) in dim light "
                    + "(\(c.key) is on; --control \(c.key)=0 or a fixed --exposure keeps the rate)"
            ]
        }
        if let (c, _) = current(HFR_V4L2_CID_EXPOSURE_ABSOLUTE), Rational(c.maximum, 10_000) > frameInterval {
            return ["automatic exposure may choose exposures longer than the frame interval \(interval)"]
        }
        return []
    }
}
