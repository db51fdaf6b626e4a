import HFRCapture
import HFRMedia

/// `hfr formats [--device D] [--json]`: every mode of a camera with its frame-rate range.
public struct FormatsCommand: Command {
    public static let name = "formats"
    public static let abstract = "List a camera's modes (pixel format × size × frame rates); mark the max-fps one."
    public static let discussion = """
        Every pixel format × frame size × frame interval the driver enumerates (discrete, stepwise
        or continuous) — in AVFoundation's terms each format with its videoSupportedFrameRateRanges.
        The mode record --fps max would take is marked with *, and the device is said to support
        high frame rate when some mode goes above 30 fps. A stepwise or continuous range of sizes
        is listed with the preset sizes inside it (3840x2160, 1920x1080, 1280x720, 854x480, then
        4:3: 2880x2160, 1440x1080, 960x720, 640x480) and the rates the driver gives at each: --fps
        max takes the largest preset that reaches the top rate, never the range's largest size
        (vivid's HDMI input goes up to 16384x8640) unless no preset fits. Rates are exact (60000/1001 in --json).
        Formats hfr cannot record (compressed streams other than MJPEG, exotic layouts) are listed
        and marked.

        --controls also lists the device's controls with their v4l2-ctl names, ranges and values,
        as record --control takes them.

        --json writes {"schema": "hfr.formats/1", ...}: see docs/devices-json.md.

        Exit codes: 0 ok, 64 usage, 69 device missing, busy, not permitted or not a capture device.
        """
    public static let options: [OptionSpec] = [
        .value(
            "device", "D", help: "Capture device: path, number, or part of its name (default: the first).",
            completion: .videoDevices),
        .flag("controls", help: "Also list the device's controls."),
        .flag("json", help: "Write machine-readable JSON to stdout."),
    ]

    let device: String?
    let json: Bool
    let listControls: Bool

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        device = arguments.value("device")
        json = arguments.flag("json")
        listControls = arguments.flag("controls")
    }

    /// What to do without a camera: formats lists a device's modes, so there is nothing to show.
    static let noCameraHint = "formats needs one (connect a camera or give --device D; 'hfr devices' lists them)"

    public func run() throws(HFRError) {
        let formats: [V4L2FormatModes]
        let controls: [V4L2Control]
        let device: V4L2Device
        do throws(CaptureError) {
            device = try CaptureSession.openDevice(self.device)
            do {
                formats = try device.formatModes()
                controls = listControls ? try device.controls() : []
            } catch {
                throw CaptureError.device(error)
            }
        } catch {
            throw .capture(error, of: Self.self, noCameraHint: Self.noCameraHint)
        }
        // Stepwise and continuous ranges are tried at the preset sizes, as record --fps max tries them.
        let modes = formats.map { $0.modes(device: device) }
        let best = CaptureSession.modeForMaximumRate(among: modes.flatMap { $0 })
        let values = controls.map { c in (c, c.isSimple && !c.isButton ? try? device.value(of: c) : nil) }
        if json {
            Console.output(
                FormatsJSON.document(device: device, formats: formats, modes: modes, best: best, controls: values)
                    .rendered + "\n")
        } else {
            Console.output(
                FormatsText.document(device: device, formats: formats, modes: modes, best: best, controls: values))
        }
    }
}
