import HFRCapture
import HFRMedia

/// The capture options `record` and `preview` share (one table, `RecordCommand.options`): what to
/// capture and how, parsed for the command being run, whose usage a mistake prints.
struct CaptureArguments {
    let source: CaptureSource
    let fps: FrameRateChoice
    /// `--size` or `--height`, if given.
    let size: FrameSize?
    let pixelFormat: String?
    /// `--capture-api`: which code reads a camera.
    let api: CaptureAPI
    /// For a camera: the device, mode, controls and capture code to ask for; nil for generated sources.
    let camera: CaptureSession.CameraRequest?

    init(_ arguments: ParsedArguments, of command: any Command.Type, noCameraHint: String) throws(HFRError) {
        source = try Self.source(arguments, of: command, noCameraHint: noCameraHint)
        fps = try arguments.value("fps", as: FrameRateChoice.self) ?? .max
        size = try Self.size(arguments, of: command)
        pixelFormat = arguments.value("pixel-format")
        api = try Self.api(arguments, source: source, of: command)
        camera = try Self.camera(
            for: source, fps: fps, size: size, pixelFormat: pixelFormat,
            controls: Self.controls(arguments, of: command), api: api, of: command)
    }

    /// The rate asked for; `--fps max` asks a generated source for 240.
    var rate: Rational {
        if case .exactly(let r) = fps { r } else { Rational(240) }
    }

    /// What a generated source makes (`--size`, default 1280x720, at `rate`), or a camera is first asked.
    func request(frame: FrameSize, includesSourceAudio: Bool, audioGraph: String? = nil) -> CaptureRequest {
        var request = CaptureRequest(
            source: source, width: frame.width, height: frame.height, frameRate: rate, pixelFormat: pixelFormat,
            includesSourceAudio: includesSourceAudio)
        request.audioGraph = audioGraph
        return request
    }

    /// `--source test`, `--source lavfi:GRAPH`, `--device D`, or the first camera.
    static func source(_ arguments: ParsedArguments, of command: any Command.Type, noCameraHint: String)
        throws(HFRError) -> CaptureSource
    {
        switch (arguments.value("source"), arguments.value("device")) {
        case ("test"?, nil): return .testPattern
        case (let s?, nil) where s.hasPrefix("lavfi:"):
            let graph = String(s.dropFirst("lavfi:".count))
            guard !graph.isEmpty else {
                throw .usage("--source lavfi: needs a filter graph, e.g. lavfi:smptebars", of: command)
            }
            return .filterGraph(graph)
        case (let s?, nil):
            throw .usage(
                "unknown source '\(s)': the sources are 'test' (built in) and 'lavfi:GRAPH' (an FFmpeg filter graph)",
                of: command)
        case (nil, let d?): return .device(path: d)
        case (nil, nil): return try firstCamera(of: command, noCameraHint: noCameraHint)
        case (_?, _?): throw .usage("--source and --device exclude each other", of: command)
        }
    }

    /// The first V4L2 capture node, or a clear error ending in `noCameraHint`.
    static func firstCamera(of command: any Command.Type, noCameraHint: String) throws(HFRError) -> CaptureSource {
        do {
            return .device(path: try CaptureSession.firstCamera())
        } catch {
            throw .capture(error, of: command, noCameraHint: noCameraHint)
        }
    }

    /// `--capture-api own|avdevice` (default own); only for a camera.
    static func api(_ arguments: ParsedArguments, source: CaptureSource, of command: any Command.Type)
        throws(HFRError) -> CaptureAPI
    {
        guard let name = arguments.value("capture-api") else { return .own }
        guard let api = CaptureAPI(rawValue: name) else {
            throw .usage("--capture-api must be own or avdevice, not '\(name)'", of: command)
        }
        if api == .avdevice, !source.isDevice {
            let given = source == .testPattern ? "test" : "lavfi:GRAPH"
            throw .usage("--capture-api avdevice needs a camera (--device), not --source \(given)", of: command)
        }
        return api
    }

    /// `--size WxH` or `--height H` (a preset width), if either is given.
    static func size(_ arguments: ParsedArguments, of command: any Command.Type) throws(HFRError) -> FrameSize? {
        if arguments.value("size") != nil, arguments.value("height") != nil {
            throw .usage("--size and --height exclude each other", of: command)
        }
        var size = try arguments.value("size", as: FrameSize.self)
        if let h = try arguments.value("height", as: Int.self) {
            guard h > 0 else { throw .usage("--height must be positive", of: command) }
            size = .preset(height: h)
        }
        return size
    }

    /// What to ask of a camera; nil for a generated source (which refuses camera controls).
    static func camera(
        for source: CaptureSource, fps: FrameRateChoice, size: FrameSize?, pixelFormat: String?,
        controls: CameraControls, api: CaptureAPI, of command: any Command.Type
    ) throws(HFRError) -> CaptureSession.CameraRequest? {
        guard case .device(let device) = source else {
            if controls != CameraControls() {
                throw .usage("camera controls (--exposure, --gain, --control …) need a --device", of: command)
            }
            return nil
        }
        var format: V4L2PixelFormat?
        if let pixelFormat {
            guard let f = V4L2PixelFormat(name: pixelFormat) else {
                throw .usage(
                    "unknown --pixel-format '\(pixelFormat)': a FourCC (NV12, YUYV, MJPG) or nv12, yuyv422…",
                    of: command)
            }
            format = f
        }
        let rate: Rational? = if case .exactly(let r) = fps { r } else { nil }
        return CaptureSession.CameraRequest(
            device: device,
            mode: ModeSelector.Request(rate: rate, size: size.map { ($0.width, $0.height) }, format: format),
            controls: controls, api: api)
    }

    /// `--exposure`, `--focus`, `--white-balance`, `--gain` and every `--control NAME=VALUE`.
    static func controls(_ arguments: ParsedArguments, of command: any Command.Type) throws(HFRError)
        -> CameraControls
    {
        var controls = CameraControls()
        let exposure = try arguments.value("exposure", as: ExposureChoice.self)
        controls.exposure = exposure?.setting
        controls.antiFlicker = exposure?.antiFlicker
        controls.focus = try arguments.value("focus", as: ControlChoice.self)?.setting
        controls.whiteBalance = try arguments.value("white-balance", as: ControlChoice.self)?.setting
        controls.gain = try arguments.value("gain", as: ControlChoice.self)?.setting
        for text in arguments.values("control") {
            guard let assignment = CameraControls.Assignment(argument: text) else {
                throw .usage("invalid --control '\(text)': expected NAME=VALUE", of: command)
            }
            controls.named.append(assignment)
        }
        return controls
    }
}
