import HFRMedia

/// Why a capture session could not open, start or go on: a typed cause (the V4L2 call, the
/// mode search, the control, the FFmpeg source) that the commands print as one line and map to
/// SPEC.md's exit codes by `isUsage` (64: what was asked cannot be; otherwise 69: the device
/// cannot do it).
public enum CaptureError: Error, Sendable, CustomStringConvertible {
    /// `--device` names nothing there is (`available`: the capture devices there are).
    case noSuchDevice(spec: String, available: [String])
    /// `--device` names several capture devices.
    case ambiguous(spec: String, matches: [String])
    /// No device was named and there is no capture device (`unopenable`: a node that would not open).
    case noCamera(unopenable: V4L2Failure?)
    /// A call on the device failed (open, query, negotiate, stream).
    case device(V4L2Failure)
    /// The node exists but is no capture node (`kind`: what it is).
    case notCapture(path: String, kind: String)
    /// The node captures but cannot stream (no V4L2_CAP_STREAMING).
    case cannotStream(path: String)
    /// No mode of the device matches the request.
    case noMode(path: String, ModeSelector.Failure)
    /// The driver kept another mode than the one set; `alternatives` names the modes reaching the rate.
    case notGranted(V4L2Failure, alternatives: String)
    /// libavdevice's v4l2 input cannot read a multi-planar node.
    case multiplanarForAVDevice(path: String)
    /// A camera control is missing, out of range or refused.
    case control(CameraControls.Failure)
    /// A generated source (the test pattern, a filter graph) cannot make the picture asked for.
    case cannotMake(CaptureRequest, AVFailure)
    /// The source delivers another size than the one asked for.
    case mismatch(source: CaptureSource, asked: (width: Int, height: Int), delivered: (width: Int, height: Int))

    /// What was asked cannot be (exit 64), rather than the device or source failing it (exit 69).
    public var isUsage: Bool {
        switch self {
        // A generated source makes another size only when asked for one its pixel format cannot be.
        case .ambiguous, .cannotMake, .mismatch: true
        default: false
        }
    }

    /// The lower-level failure, when there is one.
    public var underlying: (any Error)? {
        switch self {
        case .device(let f), .notGranted(let f, _): f
        case .noCamera(let f?): f
        case .noMode(_, let f): f
        case .control(let f): f
        case .cannotMake(_, let f): f
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .noSuchDevice(let spec, let available):
            let list =
                available.isEmpty
                ? "there is no capture device" : "capture devices: " + available.joined(separator: ", ")
            return "no capture device matches '\(spec)' (\(list))"
        case .ambiguous(let spec, let matches):
            return "'\(spec)' matches several devices: \(matches.joined(separator: ", "))"
        case .noCamera(let unopenable?):
            return "\(unopenable.path): \(unopenable.explanation)"
        case .noCamera(nil):
            return "no camera found (no video capture device in /dev)"
        case .device(let f):
            return "\(f.path): \(f.explanation)"
        case .notCapture(let path, let kind):
            return "\(path) is not a video capture device (it is: \(kind))"
        case .cannotStream(let path):
            return "\(path) cannot stream (no V4L2_CAP_STREAMING)"
        case .noMode(let path, let failure):
            return "\(path) \(failure.description)"
        case .notGranted(let f, let alternatives):
            return "\(f.path): \(f.cause); \(alternatives)"
        case .multiplanarForAVDevice(let path):
            return "\(path) is a multi-planar capture device, which libavdevice's v4l2 input cannot read "
                + "(use --capture-api own)"
        case .control(let f):
            return f.description
        case .cannotMake(let r, let f):
            return "\(r.source.name): cannot make \(r.width)x\(r.height) at \(r.frameRate.compactDescription) fps"
                + "\(r.source.graphNote) (\(f.message))"
        case .mismatch(let source, let asked, let delivered):
            return "\(source.name): asked for \(asked.width)x\(asked.height), "
                + "the source delivers \(delivered.width)x\(delivered.height)"
        }
    }
}

extension V4L2Failure {
    /// What went wrong, in the user's terms where the errno says it plainly.
    public var explanation: String {
        switch code {
        case .noSuchFile?: "no such device"
        case .permissionDenied?, .notPermitted?: "permission denied (is your user in the 'video' group?)"
        case .busy?: "busy: another program is capturing from it (\(operation))"
        case .notATerminal? where isCapabilityQuery: "not a V4L2 device"
        case .noSuchDevice?, .noSuchDeviceOrAddress?: "disconnected (\(operation))"
        case nil: cause
        default: "\(operation): \(cause)"
        }
    }
}
