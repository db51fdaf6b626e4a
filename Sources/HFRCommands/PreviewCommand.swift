import Foundation
import HFRCapture
import HFRMedia
import HFRPipeline
import HFRPreview

/// `hfr preview`: the live page without recording, to frame the shot and set the camera.
public struct PreviewCommand: Command {
    public static let name = "preview"
    public static let abstract = "Show the camera's live picture in a browser, without recording."
    public static let discussion = """
        Serves the page `hfr record --preview` serves (the live picture as MJPEG at /stream.mjpg, the
        figures as JSON at /status and as events at /events) while capturing from the camera or the
        test source (or a filter graph, --source lavfi:GRAPH), recording nothing: to frame the shot and set focus and exposure first. The mode
        is chosen and the camera controls are applied as `hfr record` does; the page names the granted
        mode and the controls read back from the driver. It only reads: controls stay options here.

        The page binds 127.0.0.1:8080 unless --preview gives another [HOST:]PORT. On an address other
        than loopback every request needs a random token, printed once in the page's address
        (http://HOST:PORT/?token=...): without it the answer is 401. At most 16 streams are served at
        once (a page holds two). Ctrl-C stops (exit 0). Exit codes: 0 ok, 64 usage, 69 device
        unavailable or the port in use, 1 other.
        """
    /// The mode, control and rotation options of `record` (one table: the same help, choices and
    /// completions), and where to serve.
    public static let options: [OptionSpec] =
        RecordCommand.options.filter { sharedWithRecord.contains($0.name) } + [
            .value("preview", "[HOST:]PORT", help: "Where to serve the page (default 127.0.0.1:8080).")
        ]
    static let sharedWithRecord: Set<String> = [
        "device", "source", "fps", "size", "height", "pixel-format", "capture-api", "exposure", "focus",
        "white-balance", "gain", "control", "rotate",
    ]

    let source: CaptureSource
    let request: CaptureRequest
    let camera: (request: ModeSelector.Request, controls: CameraControls)?
    let preview: PreviewSettings
    let captureAPI: CaptureAPI

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        source = try RecordCommand.source(arguments, of: Self.self)
        let fps = try arguments.value("fps", as: FrameRateChoice.self) ?? .max
        let size = try RecordCommand.size(arguments, of: Self.self)
        var rate = Rational(240)
        if case .exactly(let r) = fps { rate = r }
        let frame = size ?? FrameSize(width: 1280, height: 720)
        let pixelFormat = arguments.value("pixel-format")
        camera = try RecordCommand.camera(
            for: source, fps: fps, size: size, pixelFormat: pixelFormat,
            controls: RecordCommand.controls(arguments, of: Self.self), of: Self.self)
        captureAPI = try RecordCommand.captureAPI(arguments, source: source, of: Self.self)
        request = CaptureRequest(
            source: source, width: frame.width, height: frame.height, frameRate: rate, pixelFormat: pixelFormat,
            includesSourceAudio: false)
        var preview = try PreviewStart.settings(arguments, of: Self.self, fallback: "8080")!
        preview.rotation = try RotateArgument.parse(arguments, output: "", of: Self.self) ?? 0
        self.preview = preview
    }

    public func run() throws(HFRError) {
        let capture = PreviewCapture()
        let (input, mode) = try open()
        let sourceName = source.name
        let session = try PreviewStart.start(preview) {
            [("schema", .string("hfr.preview/1")), ("device", .string(sourceName))] + mode + capture.members()
        }
        StopSignal.install()
        defer { session.stop() }
        do {
            try capture.run(input, into: session.tap) { StopSignal.isRequested }
        } catch let failure as V4L2Failure {
            throw CameraSetup.error(failure)
        } catch {
            throw HFRError("\(sourceName): \(error)", exitCode: .unavailable)
        }
    }

    /// The source, started, and the members naming its granted mode (and read-back controls).
    private func open() throws(HFRError) -> (any FrameSource, [(String, JSONValue)]) {
        guard let camera, case .device(let spec) = source else {
            do {
                let input = try CaptureInput(request)
                let mode =
                    "\(input.videoWidth)x\(input.videoHeight) \(input.sourcePixelFormat ?? "?") at "
                    + "\(ProbeText.rate(request.frameRate)) fps"
                return (input, [("mode", .string(mode))])
            } catch {
                throw HFRError(
                    "\(source.name): cannot make \(request.width)x\(request.height)\(source.graphNote) "
                        + "(\(error.message))",
                    exitCode: .usage, usageOf: Self.self)
            }
        }
        let setup = try CameraSetup(
            device: spec, request: camera.request, controls: camera.controls, api: captureAPI)
        for warning in setup.warnings { Console.error("Warning: \(warning)\n") }
        let m = setup.choice.mode
        let mode = "\(m.width)x\(m.height) \(m.format.fourCC) at \(ProbeText.rate(setup.choice.rate)) fps"
        let controls = Self.readBack(setup.device, asked: camera.controls)
        do {
            try setup.capture?.start()
        } catch {
            throw CameraSetup.error(error)
        }
        return (setup.source, [("mode", .string(mode)), ("controls", .object(controls))])
    }

    /// The controls the options touch (and gain, exposure, focus, white balance) as the driver reads them.
    static func readBack(_ device: V4L2Device, asked: CameraControls) -> [(String, JSONValue)] {
        let named = Set(asked.named.map(\.key))
        let families = ["gain", "exposure", "focus", "white_balance"]
        guard let all = try? device.controls() else { return [] }
        return all.filter { c in c.isSimple && (named.contains(c.key) || families.contains { c.key.contains($0) }) }
            .compactMap { c in (try? device.value(of: c)).map { (c.key, .int(Int64(Int($0)))) } }
    }
}
