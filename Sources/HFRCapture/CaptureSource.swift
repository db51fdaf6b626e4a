import HFRMedia

/// Where frames come from.
public enum CaptureSource: Sendable, Equatable {
    /// The embedded default: a moving test pattern and a 440 Hz tone, at any size and rate, paced in
    /// real time, through libavdevice's `lavfi` input — the same path a camera takes.
    case testPattern
    /// Any FFmpeg filter graph (`--source lavfi:GRAPH`) with one unlabelled video output, made the
    /// size and rate asked for and paced in real time as the test pattern is: a picture known in
    /// advance (still bars with a moving corner, events at known times) for tests and demos. It
    /// has no sound of its own.
    case filterGraph(String)
    /// A V4L2 capture device through libavdevice's `v4l2` input (`--capture-api avdevice`,
    /// `AVDeviceCapture`; hfr's own capture, `V4L2Capture`, does not go through here).
    case device(path: String)
}

extension CaptureSource {
    /// How messages name the source: `test source`, `lavfi source`, or the device's path.
    public var name: String {
        switch self {
        case .testPattern: "test source"
        case .filterGraph: "lavfi source"
        case .device(let path): path
        }
    }

    /// What a source that cannot make a picture is told by: ` from the filter graph 'GRAPH'` for a
    /// graph (likely the cause), else nothing.
    public var graphNote: String {
        if case .filterGraph(let graph) = self { " from the filter graph '\(graph)'" } else { "" }
    }

    /// A camera, not a picture made by FFmpeg (which takes any size and rate, and no camera controls).
    public var isDevice: Bool {
        if case .device = self { true } else { false }
    }
}

/// What to capture: the source and the mode asked for.
public struct CaptureRequest: Sendable {
    public var source: CaptureSource
    public var width: Int
    public var height: Int
    public var frameRate: Rational
    /// A libavdevice `input_format` (e.g. "nv12", "yuyv422", "mjpeg"); nil = the driver's choice.
    public var pixelFormat: String?
    /// Include the source's own audio (the test pattern's tone).
    public var includesSourceAudio: Bool
    /// `--audio lavfi:GRAPH`: an FFmpeg audio filter graph as the generated source's sound (in
    /// place of the test pattern's tone), paced with the picture on one clock: a beep at a known
    /// time, for tests and demos of the audio trigger.
    public var audioGraph: String?

    public init(
        source: CaptureSource, width: Int, height: Int, frameRate: Rational, pixelFormat: String? = nil,
        includesSourceAudio: Bool
    ) {
        self.source = source
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.includesSourceAudio = includesSourceAudio
    }

    /// Live sources need no analysis: every frame read while probing would later arrive in one burst
    /// and overflow the encoder queue, so probing stops at the first packet of each stream.
    static let liveProbing = ["probesize": "32", "analyzeduration": "0", "fpsprobesize": "0"]

    /// `graph` as the lavfi input's second output: 48 kHz in frames of 1024 samples, paced.
    private func audioOutput(_ graph: String) -> String {
        ";\(graph),aresample=48000,asetnsamples=n=1024:p=0,arealtime[out1]"
    }

    /// libavdevice's input format name, URL and options for this request.
    var input: (format: String, url: String, options: [String: String]) { input(convertingRate: true) }

    /// The input, a filter graph's rate converted by `fps` or left as the graph makes it (its
    /// frames then keep their timestamps, gaps included, for the capture to count).
    func input(convertingRate: Bool) -> (format: String, url: String, options: [String: String]) {
        switch source {
        case .testPattern:
            // `realtime` paces the generator to the wall clock, as a camera would deliver frames.
            // --pixel-format makes the pattern arrive as a camera's would (yuyv422, nv12 …), so the
            // conversion path is exercised without a camera.
            var graph =
                "testsrc2=size=\(width)x\(height):rate=\(frameRate.description),"
                + "format=\(pixelFormat ?? "yuv420p"),realtime[out0]"
            if includesSourceAudio {
                graph +=
                    audioGraph.map(audioOutput)
                    ?? ";sine=frequency=440:sample_rate=48000:samples_per_frame=1024,arealtime[out1]"
            }
            return ("lavfi", graph, CaptureRequest.liveProbing)
        case .filterGraph(let graph):
            // The graph's output brought to the mode asked for (no-ops when it already is), then paced.
            let rate = convertingRate ? "fps=\(frameRate.description)," : ""
            var video =
                "\(graph),scale=\(width):\(height),\(rate)format=\(pixelFormat ?? "yuv420p"),realtime[out0]"
            if includesSourceAudio, let audioGraph { video += audioOutput(audioGraph) }
            return ("lavfi", video, CaptureRequest.liveProbing)
        case .device(let path):
            // ts=abs: wall-clock timestamps (monotonic ones converted), to line device audio up with.
            var options = [
                "video_size": "\(width)x\(height)", "framerate": frameRate.description, "ts": "abs",
            ]
            if let pixelFormat { options["input_format"] = pixelFormat }
            options.merge(CaptureRequest.liveProbing) { a, _ in a }
            return ("v4l2", path, options)
        }
    }
}
