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
        mode and the controls read back from the driver, and the light's flicker (frequency and depth,
        measured from the live picture, `flicker` in /status). It only reads: controls stay options
        here.

        The page binds 127.0.0.1:8080 unless --preview gives another [HOST:]PORT. On an address other
        than loopback every request needs a random token, printed once in the page's address
        (http://HOST:PORT/?token=...): without it the answer is 401 and the connection is closed.
        A connection that has not sent a whole request within 5 s is closed, and at most 48 without
        the token (32 from one address) are kept, the oldest closed first: strangers cannot hold the
        server, and the token's holder is always served. At most 16 streams are served at once (a
        page holds two). Ctrl-C stops (exit 0). Exit codes: 0 ok, 64 usage, 69 device
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

    let capture: CaptureArguments
    let preview: PreviewSettings

    /// What `preview` says when there is no camera.
    static let noCameraHint = "try --source test"

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        capture = try CaptureArguments(arguments, of: Self.self, noCameraHint: Self.noCameraHint)
        var preview = try PreviewStart.settings(arguments, of: Self.self, fallback: "8080")!
        preview.rotation = try RotateArgument.parse(arguments, output: "", of: Self.self) ?? 0
        self.preview = preview
    }

    public func run() throws(HFRError) {
        let counts = PreviewCapture()
        let session: CaptureSession
        do {
            let frame = capture.size ?? FrameSize(width: 1280, height: 720)
            session = try CaptureSession.open(
                capture.camera.map { .camera($0) }
                    ?? .generated(capture.request(frame: frame, includesSourceAudio: false)))
            try session.start()
        } catch {
            throw .capture(error, of: Self.self)
        }
        defer { session.stop() }
        let grant = session.granted
        for line in grant.setupLines { Console.error(line + "\n") }
        var members: [(String, JSONValue)] = [
            ("schema", .string("hfr.preview/1")), ("device", .string(grant.source.name)),
            ("mode", .string(grant.summary)),
        ]
        if grant.card != nil {
            members.append(("controls", .object(grant.controls.map { ($0.key, .int($0.value)) })))
        }
        let server = try PreviewStart.start(preview) { [members] in members + counts.members() }
        Signals.install(SignalPlan(.stop))
        defer { server.stop() }
        do {
            try counts.run(session, into: server.tap) { Signals.isStopRequested }
        } catch let failure as V4L2Failure {
            throw .capture(.device(failure), of: Self.self)
        } catch {
            throw HFRError("\(grant.source.name): \(error)", exitCode: .unavailable)
        }
    }
}
