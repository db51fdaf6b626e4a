import HFRCapture
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Opens a V4L2 camera for `record`: picks the mode, sets it, checks what was granted, applies
/// the controls. Every failure becomes one line with the exit code of SPEC.md (69: the device
/// cannot do it). With `--capture-api avdevice` the same mode is opened through libavdevice's
/// v4l2 input instead (which starts streaming at once) and refused in the same words.
struct CameraSetup {
    /// The node hfr enumerates and sets controls on.
    let device: V4L2Device
    /// hfr's own capture, set but not started (nil with `--capture-api avdevice`).
    let capture: V4L2Capture?
    /// What frames come from: `capture`, or libavdevice's input (already streaming).
    let source: any FrameSource
    let choice: ModeSelector.Choice
    let warnings: [String]

    init(
        device spec: String, request: ModeSelector.Request, controls: CameraControls, api: CaptureAPI = .own
    ) throws(HFRError) {
        let path = try CameraSetup.path(for: spec)
        let device = try CameraSetup.open(path)
        let modes = try CameraSetup.modes(of: device, including: request.size)
        let choice: ModeSelector.Choice
        do {
            choice = try ModeSelector(modes: modes).select(request)
        } catch {
            throw HFRError("\(path) \(error.description)", exitCode: .unavailable)
        }
        self.choice = choice
        self.device = device
        if api == .avdevice, device.capabilities.isMultiplanar {
            throw HFRError(
                "\(path) is a multi-planar capture device, which libavdevice's v4l2 input cannot read "
                    + "(use --capture-api own)", exitCode: .unavailable)
        }
        do {
            (capture, source) = try CameraSetup.capture(device, choice: choice, api: api)
        } catch {
            guard error.isModeNotGranted else { throw CameraSetup.error(error) }
            // The driver granted something else than it enumerated: say what does reach the rate.
            let reaching = modes.filter { $0.offers(choice.rate) && $0 != choice.mode }
            let others =
                reaching.isEmpty
                ? "no other mode offers \(ModeSelector.rateText(choice.rate)) fps"
                : "modes offering \(ModeSelector.rateText(choice.rate)) fps: "
                    + reaching.map { "\($0.format.fourCC) \($0.width)x\($0.height)" }.joined(separator: ", ")
            throw HFRError("\(path): \(error.cause); \(others)", exitCode: .unavailable)
        }
        do {
            warnings = try controls.apply(to: device, frameInterval: choice.rate.reciprocal)
        } catch {
            throw HFRError(error.description, exitCode: .unavailable)
        }
    }

    /// Sets the mode for hfr's own capture, or opens libavdevice's input in it.
    private static func capture(_ device: V4L2Device, choice: ModeSelector.Choice, api: CaptureAPI)
        throws(V4L2Failure) -> (V4L2Capture?, any FrameSource)
    {
        switch api {
        case .own:
            let own = try V4L2Capture(device: device, choice: choice)
            return (own, own)
        case .avdevice:
            return (nil, try AVDeviceCapture(path: device.path, choice: choice))
        }
    }

    /// `--device`: a path, a node number, or part of the device's name.
    static func path(for spec: String) throws(HFRError) -> String {
        switch DeviceCatalog.resolve(spec) {
        case .path(let p): return p
        case .noMatch(let available):
            let list =
                available.isEmpty
                ? "there is no capture device" : "capture devices: " + available.joined(separator: ", ")
            throw HFRError("no capture device matches '\(spec)' (\(list))", exitCode: .unavailable)
        case .ambiguous(let matches):
            throw HFRError("'\(spec)' matches several devices: \(matches.joined(separator: ", "))", exitCode: .usage)
        }
    }

    /// Opens `path` and makes sure it is a streaming capture node (single- or multi-planar).
    static func open(_ path: String) throws(HFRError) -> V4L2Device {
        let device: V4L2Device
        do {
            device = try V4L2Device(path: path)
        } catch {
            throw CameraSetup.error(error)
        }
        let caps = device.capabilities
        guard caps.canCapture else {
            throw HFRError("\(path) is not a video capture device (it is: \(caps.kind))", exitCode: .unavailable)
        }
        guard caps.canStream else {
            throw HFRError("\(path) cannot stream (no V4L2_CAP_STREAMING)", exitCode: .unavailable)
        }
        return device
    }

    /// Every mode of the device, with the asked-for size filled in where the sizes are stepwise.
    static func modes(of device: V4L2Device, including size: (width: Int, height: Int)?) throws(HFRError)
        -> [V4L2Mode]
    {
        do {
            return try device.formatModes().flatMap { $0.modes(including: size.map { [$0] } ?? [], device: device) }
        } catch {
            throw CameraSetup.error(error)
        }
    }

    /// One line for a failed call on a device, by errno.
    static func error(_ failure: V4L2Failure) -> HFRError {
        HFRError("\(failure.path): \(cause(failure))", exitCode: .unavailable)
    }

    /// What went wrong, in the user's terms where the errno says it plainly.
    static func cause(_ failure: V4L2Failure) -> String {
        switch failure.code {
        case .noSuchFile?: "no such device"
        case .permissionDenied?, .notPermitted?: "permission denied (is your user in the 'video' group?)"
        case .busy?: "busy: another program is capturing from it (\(failure.operation))"
        case .notATerminal? where failure.isCapabilityQuery: "not a V4L2 device"
        case .noSuchDevice?, .noSuchDeviceOrAddress?: "disconnected (\(failure.operation))"
        case nil: failure.cause
        default: "\(failure.operation): \(failure.cause)"
        }
    }
}
