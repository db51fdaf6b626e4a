import HFRMedia

/// The one owner of a capture, for every backend: hfr's own V4L2 capture, libavdevice's v4l2
/// input, the test pattern and any FFmpeg filter graph. `open` resolves the device, opens it,
/// negotiates the mode (set and read back) and applies the controls; `start` starts streaming
/// (or, for a generated source, starts its clock); `next` delivers frames; `stop` ends streaming
/// and releases the device. What was granted is reported once, in `granted`.
///
/// The commands only parse options and print: every failure is a `CaptureError`.
///
/// Unchecked Sendable: one thread at a time uses a session — the command opens and starts it,
/// the capture thread reads it, and the command stops it after that thread was joined.
public final class CaptureSession: FrameSource, @unchecked Sendable {
    /// What to capture.
    public enum Request: Sendable {
        /// The test pattern or a filter graph, made at the size, rate and pixel format asked for.
        case generated(CaptureRequest)
        /// A V4L2 camera.
        case camera(CameraRequest)
    }

    /// A camera, the mode asked of it, its controls and which code reads it.
    public struct CameraRequest: Sendable {
        /// `--device` as given: a path, a node number or part of the name; nil: the first capture device.
        public var device: String?
        public var mode: ModeSelector.Request
        public var controls: CameraControls
        public var api: CaptureAPI

        public init(device: String?, mode: ModeSelector.Request, controls: CameraControls, api: CaptureAPI = .own) {
            self.device = device
            self.mode = mode
            self.controls = controls
            self.api = api
        }
    }

    public enum State: Sendable, Equatable {
        case opened, streaming, stopped
    }

    /// What the source delivers (a generated source's pixel format is filled in by `start`).
    public private(set) var granted: CaptureGrant
    public private(set) var state = State.opened
    private let generated: CaptureRequest?
    /// The camera's node, while the session holds it.
    public private(set) var device: V4L2Device?
    /// hfr's own capture (nil for libavdevice's input and generated sources).
    private var own: V4L2Capture?
    /// Where frames come from once started.
    private var source: (any FrameSource)?

    private init(
        granted: CaptureGrant, generated: CaptureRequest?, device: V4L2Device?, own: V4L2Capture?,
        source: (any FrameSource)?
    ) {
        self.granted = granted
        self.generated = generated
        self.device = device
        self.own = own
        self.source = source
    }

    /// Opens what `request` names: a camera is resolved, opened, set to the chosen mode (read back)
    /// and its controls applied, not yet streaming (libavdevice's input streams from here on); a
    /// generated source opens in `start`, where its clock starts.
    public static func open(_ request: Request) throws(CaptureError) -> CaptureSession {
        switch request {
        case .generated(let r):
            let grant = CaptureGrant(
                source: r.source, width: r.width, height: r.height, rate: r.frameRate, pixelFormat: nil, card: nil,
                api: nil)
            return CaptureSession(granted: grant, generated: r, device: nil, own: nil, source: nil)
        case .camera(let camera):
            let device = try openDevice(camera.device)
            return try open(device, camera)
        }
    }

    /// A camera already open (the kernel's node, or a scripted driver in tests) set up for `camera`.
    static func open(_ device: V4L2Device, _ camera: CameraRequest) throws(CaptureError) -> CaptureSession {
        let path = device.path
        let modes = try CaptureSession.modes(of: device, including: camera.mode.size)
        let choice: ModeSelector.Choice
        do {
            choice = try ModeSelector(modes: modes).select(camera.mode)
        } catch {
            throw .noMode(path: path, error)
        }
        if camera.api == .avdevice, device.capabilities.isMultiplanar { throw .multiplanarForAVDevice(path: path) }
        let own: V4L2Capture?
        let source: any FrameSource
        do {
            switch camera.api {
            case .own:
                own = try V4L2Capture(device: device, choice: choice)
                source = own!
            case .avdevice:
                own = nil
                source = try AVDeviceCapture(path: path, choice: choice)
            }
        } catch {
            guard error.isModeNotGranted else { throw .device(error) }
            throw .notGranted(error, alternatives: alternatives(to: choice, in: modes))
        }
        var grant = CaptureGrant(
            source: .device(path: path), width: choice.mode.width, height: choice.mode.height, rate: choice.rate,
            pixelFormat: choice.mode.format.fourCC, card: device.capabilities.card, api: camera.api)
        do {
            let outcome = try camera.controls.apply(to: device, frameInterval: choice.rate.reciprocal)
            grant.warnings = outcome.warnings
            grant.antiFlicker = outcome.antiFlicker
        } catch {
            throw .control(error)
        }
        grant.controls = CaptureGrant.readings(device, asked: camera.controls)
        let session = CaptureSession(granted: grant, generated: nil, device: device, own: own, source: source)
        if own == nil { session.state = .streaming }
        return session
    }

    /// A camera set up by hand (tests of the pipeline on a scripted driver).
    static func wrapping(_ capture: V4L2Capture) -> CaptureSession {
        let g = capture.granted
        let grant = CaptureGrant(
            source: .device(path: capture.device.path), width: g.width, height: g.height, rate: g.rate,
            pixelFormat: g.format.fourCC, card: capture.device.capabilities.card, api: .own)
        return CaptureSession(granted: grant, generated: nil, device: capture.device, own: capture, source: capture)
    }

    /// Starts streaming: hfr's own capture queues its buffers, a generated source opens (its clock
    /// starts now) and must deliver the size asked for. Starting twice does nothing.
    public func start() throws(CaptureError) {
        guard state == .opened else { return }
        if let own {
            do {
                try own.start()
            } catch {
                throw .device(error)
            }
        } else if let generated {
            let input: CaptureInput
            do {
                input = try CaptureInput(generated)
            } catch {
                throw .cannotMake(generated, error)
            }
            guard input.videoWidth == generated.width, input.videoHeight == generated.height else {
                throw .mismatch(
                    source: generated.source, asked: (generated.width, generated.height),
                    delivered: (input.videoWidth, input.videoHeight))
            }
            granted.pixelFormat = input.sourcePixelFormat
            source = input
        }
        state = .streaming
    }

    /// Ends streaming and releases the device (VIDIOC_STREAMOFF, buffers unmapped, node closed once
    /// nothing else holds it); `next` returns nil from then on.
    public func stop() {
        state = .stopped
        source = nil
        own = nil
        device = nil
    }

    /// Whether hfr's own capture delivers JPEGs (an MJPEG mode), which the record pipeline decodes.
    public var isJPEG: Bool { own?.isJPEG == true }

    /// An MJPEG mode's pictures leave `next()` compressed, for a decode stage (`V4L2Capture.deliversJPEG`).
    public var deliversJPEG: Bool {
        get { own?.deliversJPEG == true }
        set { own?.deliversJPEG = newValue }
    }

    // MARK: FrameSource, once started

    private var started: any FrameSource {
        guard let source, state == .streaming else { preconditionFailure("CaptureSession read before start()") }
        return source
    }

    public var videoTimeBase: Rational { started.videoTimeBase }
    public var videoWidth: Int { started.videoWidth }
    public var videoHeight: Int { started.videoHeight }
    public var sourcePixelFormat: String? { started.sourcePixelFormat }
    public var audio: StreamInfo? { started.audio }
    public var losses: SourceLosses? { started.losses }
    public var audioFailure: AVFailure? { started.audioFailure }

    public func next() throws -> CaptureItem? {
        guard state != .stopped else { return nil }
        return try started.next()
    }
}
