import Foundation
import HFRCapture
import HFRMedia
import HFRPipeline
import HFRPreview

/// `hfr record`: capture at high frame rate into H.264 with droppable temporal layers.
public struct RecordCommand: Command {
    public static let name = "record"
    public static let abstract = "Record video at a high frame rate into H.264 with droppable layers."
    public static let discussion = """
        Frames are encoded with OpenH264 in temporal layers: with 3 layers at 120 fps the top layer
        (half the frames) are non-reference P-frames, marked disposable in MP4/MOV (sdtp), so the
        file can be thinned to 60 or 30 fps without re-encoding (hfr export --fps).

        While recording, frames go to OUTPUT's name with .partial.mp4, a fragmented MP4 flushed every
        0.5 s: if hfr is killed, that file plays and holds all but the last half second. On a clean
        stop (--duration, --frames, Ctrl-C, SIGTERM) it becomes OUTPUT: a regular MP4 (or MOV/MKV by
        extension) with its index first, sdtp, and the capture rate stored (com.android.capture.fps
        and com.hfr.capture.fps). A second Ctrl-C stops at once and keeps the partial file.

        --source test is a moving test pattern with a 440 Hz tone, paced in real time, through the
        same pipeline as a camera; it takes any --size and --fps (max = 240). --source lavfi:GRAPH
        takes any FFmpeg filter graph with one unlabelled video output the same way (scaled to
        --size, at --fps, no sound of its own): a picture known in advance, or events at known
        times, e.g. 'lavfi:smptebars' or 'lavfi:color=black,drawbox=c=white:t=fill:enable=gte(t\\,2)'
        (white from 2 s on).

        With a camera (--device, or the first capture device), the mode is chosen as AVFoundation's
        high-frame-rate recipe does: --fps max takes the highest rate the device offers, preferring
        4:2:0 (YU12, which the encoder takes as is, then NV12), packed 4:2:2, MJPEG, then the larger
        size; --fps N takes the largest size reaching exactly N (60000/1001 is not 60) in the
        preferred format; --size, --height and --pixel-format narrow the choice (hfr formats lists
        the modes). Format, size and rate are set together and read back: if the driver grants
        anything else, hfr refuses and names the modes that do reach the rate. Drops are counted from gaps in the driver's frame
        sequence numbers; frames the driver flags as corrupt are counted and skipped. A camera with a
        stepwise or continuous range of sizes is tried at the preset sizes inside it (hfr formats
        lists them): --fps max takes the largest preset reaching the top rate.

        --capture-api avdevice reads the camera through libavdevice's v4l2 input instead of hfr's own
        V4L2 capture (the default, own): the same mode, set and read back the same way, but the
        driver's sequence numbers and error flags are hidden, so drops are counted from gaps in the
        frame timestamps (the report says so) and a corrupt frame is one such gap. Use it when the
        own capture misbehaves with a driver, or to cross-check it.

        Camera controls: --exposure auto|T (T: 1/500, 2ms, or 100 µs units), --focus auto|V,
        --white-balance auto|K, --gain auto|V, and any control by its v4l2-ctl name with
        --control name=value (repeatable; hfr formats --controls lists them).

        --exposure antiflicker=50 (or =60, the mains frequency) keeps the flicker of mains-lit
        scenes out of the frames: it sets the camera's power_line_frequency control where it has
        one; otherwise it sets a manual exposure of the most whole flicker periods (half a mains
        cycle: 10 ms at 50 Hz, 8.333 ms at 60 Hz) that fit a frame, e.g. 10 ms at 60 fps under 50 Hz
        light or 8.3 ms at 120 fps under 60 Hz (the control counts 100 µs). One line says what was
        set and read back. Where no such exposure fits (240 fps under 50 Hz light: a frame lasts
        4.17 ms, a period 10 ms) or the camera has neither control, a warning says so and the
        recording goes on; --json carries the choice (antiflicker). antiflicker alone takes the
        control's automatic detection where the camera offers it, else 50 Hz.

        --rotate 90 (or 180, 270) says how many degrees clockwise a viewer turns the picture, as a
        phone held upright records: written as the display matrix (tkhd) of MP4/MOV, partial file
        included, with no re-encoding (ffprobe, which counts counter-clockwise, prints rotation -90;
        exiftool Rotation 90); in MKV as the track's Projection roll (-90), which FFmpeg reads back.

        --pre-trigger T records as a high-speed camera does: the last T of encoded frames (from a
        key frame) and audio wait in RAM, and each trigger writes a clip from T before it to
        --post-trigger T after it (default 2s); windows that overlap make one clip. --trigger
        picks what fires (default key,signal, and http with --preview): signal (SIGUSR1), key
        (Enter or space; a line when standard input is a pipe), http (the preview's button or
        POST /trigger), motion (--motion-threshold percent of change in downscaled luma, default
        5, in --motion-region X,Y,W,H), audio (--audio-threshold dBFS, default -20). OUTPUT names
        the clips as a template (shot-%03d.mp4; take.mp4 gives take-001.mp4 …); a clip never
        replaces a file without --force. In MP4/MOV an edit list hides the frames before the
        window's start; each clip stores its triggers and its first frame's wall-clock time
        (hfr probe shows them). --clips N stops after N clips. With --buffer ram the ring holds
        raw frames and only clips are encoded (each from a key frame of its own), so a clip at a
        rate the encoder cannot keep up with live keeps every frame. --audio lavfi:GRAPH gives a
        generated source a sound from an FFmpeg audio graph (a beep at a known time).
        --buffer ram[:SIZE] records as high-speed cameras do: frames wait in RAM, up to SIZE of them
        (512M, 4G; default half the memory available, at most 16G), between the capture, which keeps
        the camera's full rate, and the encoder, which keeps encoding behind it and saves the frames
        still held once the capture ends (the progress then says "saving"). An encoder slower than
        the camera (1080p240 or 4K60 on two cores) then loses no frame of a burst that fits. When
        SIZE is full, --late-frames says what happens: drop (counted as late) or queue (the capture
        waits; a camera's driver then drops). Ctrl-C ends the capture and saves every frame held;
        a second Ctrl-C (or kill -9) stops at once, keeping the partial file without the frames
        not yet saved.

        --duration T is a promise in wall-clock time: a source that delivers less than the rate asked
        (a filter graph too slow to make it, a camera lengthening its exposure) is named in a warning
        within a second of the first frame, and the recording ends T after that frame with the frames
        it gave. Audio that ends, stalls or fails before the video never ends the recording: the
        track goes on in silence (or, when its encoder failed, ends there), and the summary says so.

        --preview [HOST:]PORT serves a live page while recording (hfr preview --help): the picture
        as MJPEG (≤ 640 px wide, ≤ 30 fps), the figures as JSON (/status) and events; it never holds
        up the capture (a picture is offered to it only when it is free).

        Exit codes: 0 ok (also after Ctrl-C), 64 usage, 65 bad data, 69 device unavailable
        (missing, busy, not permitted, not a capture device, no such mode or control, unplugged
        while recording — what was captured before is kept; or the preview's port in use), 74 output
        cannot be written (disk full keeps what was captured), 1 other.
        """
    public static let options: [OptionSpec] =
        [
            .positional("OUTPUT", optional: true, help: "File to write (.mp4, .mov, .mkv); default hfr-DATE-TIME.mp4."),
            .value(
                "device", "D", help: "V4L2 capture device: path, number (2 = /dev/video2) or part of its name.",
                completion: .videoDevices),
            .value(
                "source", "test|lavfi:GRAPH",
                help: "Use the built-in test source, or an FFmpeg filter graph, instead of a camera.", choices: ["test"]
            ),
            .value("fps", "N|max", help: "Frame rate, e.g. 120 or 60000/1001 (default: max).", choices: ["max"]),
            .value("size", "WxH", help: "Frame size (test source default: 1280x720)."),
            .value(
                "height", "H", help: "Frame height with the preset width (2160, 1080, 720, 480).",
                choices: ["2160", "1080", "720", "480"]),
            .value(
                "pixel-format", "F",
                help: "Pixel format the source delivers (nv12, yuyv422, mjpeg…); converted to I420 when needed."),
            .value(
                "capture-api", "own|avdevice",
                help: "Camera capture: hfr's own V4L2 code (default) or libavdevice's v4l2 input.",
                choices: ["own", "avdevice"]),
            .value(
                "layers", "1-4", help: "Temporal layers (default: 3 at ≥ 120 fps, 2 at ≥ 60, 1 below).",
                choices: ["1", "2", "3", "4"]),
            .value("bitrate", "B", help: "Target bitrate, e.g. 8M (default: from size and rate)."),
            .value(
                "duration", "T",
                help: "Stop after T (5, 2.5s, 500ms, 1:30 or 1:02:03) from the first frame, by the clock when the "
                    + "source is slower than asked."),
            .value("frames", "N", help: "Stop after N frames."),
            .value(
                "audio", "DEVICE|none",
                help: "Audio: the source's own (default), none, a device (alsa:hw:1,0, pulse:NAME, hw:1), or an FFmpeg "
                    + "filter graph as a generated source's sound (lavfi:GRAPH).",
                choices: ["none"], completion: .audioDevices),
            .value(
                "audio-rate", "HZ",
                help: "A device's sample rate (default 48000). Above 48000 the audio is kept losslessly (ALAC): "
                    + "AAC drops what lies above 20 kHz, which is what such rates are for (ultrasound)."),
            .value(
                "late-frames", "drop|queue", help: "When encoding falls behind: drop frames (default) or wait.",
                choices: ["drop", "queue"]),
            BufferArgument.option,
            .value(
                "exposure", "auto|T|antiflicker[=50|60]",
                help: "Camera exposure: auto, a time such as 1/500 or 2ms, or antiflicker under 50 or 60 Hz light.",
                choices: ["auto", "antiflicker", "antiflicker=50", "antiflicker=60"]),
            .value("focus", "auto|V", help: "Camera focus: auto, or the focus_absolute value.", choices: ["auto"]),
            .value(
                "white-balance", "auto|K", help: "Camera white balance: auto, or a colour temperature in kelvin.",
                choices: ["auto"]),
            .value("gain", "auto|V", help: "Camera gain: auto, or a gain value.", choices: ["auto"]),
            .repeated("control", "NAME=V", help: "Set any camera control by its v4l2-ctl name (repeatable)."),
            RotateArgument.option(
                help: "Degrees clockwise to turn the picture when shown (files: display matrix, no re-encode)."),
            .value(
                "preview", "[HOST:]PORT",
                help:
                    "Serve a live preview page (127.0.0.1 unless HOST is given; elsewhere it needs the printed token)."),
        ] + TriggerArguments.options + [
            .flag("force", help: "Replace OUTPUT (and a leftover partial file) if they exist."),
            .flag("json", help: "Write the final report as JSON to stdout."),
        ]

    /// Complete for the test source; a camera's mode is filled in by `run` once the device is open.
    let settings: RecordSettings
    let json: Bool
    let force: Bool
    /// For a camera: what to ask of it (the device, mode, controls and capture code).
    let camera: CaptureSession.CameraRequest?
    let layersOption: Int?
    let bitrateOption: Int?
    /// `--preview`: where to serve the live page.
    let preview: PreviewSettings?
    /// `--capture-api`: which code reads the camera.
    let captureAPI: CaptureAPI
    /// `--pre-trigger`, `--trigger` …: clips around triggers instead of one file.
    let triggers: TriggerSettings?

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        let capture = try CaptureArguments(arguments, of: Self.self, noCameraHint: Self.noCameraHint)
        let rate = capture.rate
        guard rate <= Rational(1000) else {
            throw .usage("--fps \(rate.compactDescription) is above 1000", of: RecordCommand.self)
        }
        let frame = try Self.checked(capture.size ?? FrameSize(width: 1280, height: 720))
        layersOption = try arguments.value("layers", as: Int.self)
        let layers = layersOption ?? RecordSettings.defaultLayers(for: rate)
        guard (1...4).contains(layers) else { throw .usage("--layers must be 1 to 4", of: RecordCommand.self) }
        let (duration, frameLimit) = try Self.limits(arguments)
        let late = try Self.lateFrames(arguments)
        let (includesAudio, audioDevice, audioGraph) = Self.audio(arguments)
        if let audioGraph {
            guard !capture.source.isDevice, capture.camera == nil else {
                throw .usage(
                    "--audio lavfi:GRAPH is the sound of --source test or lavfi:GRAPH, not of a camera",
                    of: RecordCommand.self)
            }
            guard !audioGraph.isEmpty else {
                throw .usage("--audio lavfi: needs a filter graph, e.g. lavfi:sine=f=1000", of: RecordCommand.self)
            }
        }
        let audioRate = try Self.audioRate(arguments, device: audioDevice)
        bitrateOption = try arguments.value("bitrate", as: Bitrate.self)?.bitsPerSecond
        let output = arguments.positional("OUTPUT") ?? RecordCommand.defaultOutputName()
        captureAPI = capture.api
        camera = capture.camera
        var settings = RecordSettings(
            capture: capture.request(frame: frame, includesSourceAudio: includesAudio, audioGraph: audioGraph),
            output: output, temporalLayers: layers, bitrate: 0, keyframeInterval: 0, encoderThreads: 1,
            duration: duration, frameLimit: frameLimit, lateFrames: late, queueCapacity: 16,
            showsStatus: ProgressLine.style != .quiet, audioDevice: audioDevice)
        settings.rotation = try RotateArgument.parse(arguments, output: output, of: RecordCommand.self) ?? 0
        settings.audioRate = audioRate
        settings.ramBudget = try BufferArgument.parse(arguments)
        self.settings = settings
        json = arguments.flag("json")
        force = arguments.flag("force")
        var preview = try PreviewStart.settings(arguments, of: Self.self)
        preview?.rotation = settings.rotation
        self.preview = preview
        triggers = try TriggerArguments.parse(
            arguments, output: output, hasPreview: preview != nil, hasAudio: includesAudio || audioDevice != nil)
    }

    /// `frame` if the encoder can take it (`H264Limits`: even sides, at most level 5.2's 36864 macroblocks).
    static func checked(_ frame: FrameSize) throws(HFRError) -> FrameSize {
        if let problem = H264Limits.problem(width: frame.width, height: frame.height) {
            throw .usage("--size \(frame.width)x\(frame.height) \(problem)", of: RecordCommand.self)
        }
        return frame
    }

    /// `--duration T` or `--frames N`, if either is given.
    static func limits(_ arguments: ParsedArguments) throws(HFRError) -> (duration: Rational?, frames: Int?) {
        let duration = try arguments.value("duration", as: Duration.self)?.seconds
        let frameLimit = try arguments.value("frames", as: Int.self)
        if duration != nil, frameLimit != nil {
            throw .usage("--duration and --frames exclude each other", of: RecordCommand.self)
        }
        if let frameLimit, frameLimit <= 0 { throw .usage("--frames must be positive", of: RecordCommand.self) }
        return (duration, frameLimit)
    }

    static func lateFrames(_ arguments: ParsedArguments) throws(HFRError) -> RecordSettings.LateFrames {
        switch arguments.value("late-frames") ?? "drop" {
        case "drop": return .drop
        case "queue": return .queue
        case let other: throw .usage("--late-frames must be drop or queue, not '\(other)'", of: RecordCommand.self)
        }
    }

    /// `--audio`: the source's own (default), none, or a capture device instead.
    static func audio(
        _ arguments: ParsedArguments
    ) -> (includesSourceAudio: Bool, device: AudioCaptureInput.Device?, graph: String?) {
        switch arguments.value("audio") {
        case nil: (true, nil, nil)
        case "none": (false, nil, nil)
        // A filter graph replaces a generated source's tone (checked against the source in init).
        case let graph? where graph.hasPrefix("lavfi:"): (true, nil, String(graph.dropFirst("lavfi:".count)))
        // A capture device replaces the source's own audio.
        case let device?: (false, AudioCaptureInput.Device(device), nil)
        }
    }

    /// `--audio-rate HZ`: 8000 to 384000 (ALSA's and ALAC's range), for a capture device only.
    static func audioRate(_ arguments: ParsedArguments, device: AudioCaptureInput.Device?) throws(HFRError) -> Int {
        guard let rate = try arguments.value("audio-rate", as: Int.self) else { return 48000 }
        guard device != nil else {
            throw .usage("--audio-rate sets a capture device's rate: give one with --audio", of: RecordCommand.self)
        }
        guard (8000...384_000).contains(rate) else {
            throw .usage("--audio-rate must be 8000 to 384000 Hz, not \(rate)", of: RecordCommand.self)
        }
        return rate
    }

    /// The settings for the mode finally recorded: layers, bitrate, key-frame interval and
    /// threads follow from the size and rate.
    func settings(width: Int, height: Int, rate: Rational, pixelFormat: String?) -> RecordSettings {
        var s = settings
        s.capture.width = width
        s.capture.height = height
        s.capture.frameRate = rate
        s.capture.pixelFormat = pixelFormat
        s.temporalLayers = layersOption ?? RecordSettings.defaultLayers(for: rate)
        s.bitrate = bitrateOption ?? H264Encoder.Settings.defaultBitrate(width: width, height: height, rate: rate)
        s.keyframeInterval = H264Encoder.Settings.keyframeInterval(rate: rate, temporalLayers: s.temporalLayers)
        s.encoderThreads = H264Encoder.Settings.defaultThreads(width: width, height: height, frameRate: rate)
        // Half a second of frames between capture and encoder absorbs encoder hiccups (at least
        // 16 frames, at most 192 MiB of I420).
        let frameBytes = max(1, width * height * 3 / 2)
        s.queueCapacity = max(16, min(Int(rate.rounded()) / 2, (192 << 20) / frameBytes))
        return s
    }

    public func run() throws(HFRError) {
        var settings = self.settings
        // Before the camera opens: an .avi would otherwise record, then fail at the end.
        try OutputFile.checkContainer(settings.output, of: Self.self)
        // Before the camera and the output: a port in use leaves nothing behind.
        let live = RecordPreviewStatus()
        let board = triggers.map { TriggerBoard(settings: $0) }
        var preview = self.preview
        if let board, board.settings.kinds.contains(.http) { preview?.trigger = { board.request(.http) } }
        let previewSession = try preview.map { p throws(HFRError) in try PreviewStart.start(p) { live.members() } }
        let session = try openSession(settings)
        defer { session.stop() }
        settings = try self.settings(for: session)
        try BufferArgument.check(settings)
        let progress = RecordProgress(settings: settings, camera: session.granted.card, triggers: board)
        try prepareOutput(settings, board: board)
        Signals.install(signalPlan(progress, board: board, output: settings.output))
        // The session starts streaming in the pipeline, after the audio device opened.
        // A warning while recording erases a live progress line first (it is redrawn after).
        let erase = ProgressLine.style == .terminal ? "\r\u{1B}[K" : ""
        let pipeline = RecordPipeline(
            settings: settings, session: session, preview: previewSession?.tap, triggers: board, force: force,
            warn: { Console.error(erase + "Warning: \($0)\n") })
        live.attach(settings: settings, stats: pipeline.stats, triggers: board)
        defer { previewSession?.stop() }
        let keys = board.flatMap { $0.settings.kinds.contains(.key) ? KeyTrigger(board: $0) : nil }
        if let board, board.settings.kinds.contains(.key), keys == nil {
            Console.error("Note: in the background of a terminal, keys do not fire clips (kill -USR1 does)\n")
        }
        defer { keys?.stop() }
        let showsStatus = settings.showsStatus
        let status: ((RecordStats, Int) -> Void)? =
            showsStatus || preview != nil
            ? { stats, depth in
                live.queueDepth.store(depth, ordering: .relaxed)
                if showsStatus { progress.show(stats, queueDepth: depth) }
            } : nil
        var facts = RecordStatus.CaptureFacts(source: settings.capture.source, api: captureAPI)
        facts.antiFlicker = session.granted.antiFlicker
        let report: RecordReport
        do {
            report = try pipeline.run(status: status)
        } catch {
            progress.end()
            // What was kept (camera unplugged, disk full) is still reported to machines.
            if json, let report = error.report {
                Console.output(RecordStatus.json(report, capture: facts).rendered + "\n")
            }
            throw RecordStatus.error(for: error, settings: settings)
        }
        keys?.stop()
        progress.clear()
        Console.error(RecordStatus.summary(report, capture: facts) + "\n")
        if json { Console.output(RecordStatus.json(report, capture: facts).rendered + "\n") }
        if let failed = report.clips?.first(where: { $0.failure != nil }) {
            throw .io(failed.path, failed.failure ?? "not written")
        }
    }

    /// Checks the triggers against the mode granted and readies the output (or, with triggers, the
    /// clips' directory): before any frame is captured.
    private func prepareOutput(_ settings: RecordSettings, board: TriggerBoard?) throws(HFRError) {
        if let board {
            try TriggerArguments.check(
                board.settings.motionRegion, width: settings.capture.width, height: settings.capture.height)
            try TriggerArguments.checkRing(board.settings, record: settings)
            // The directory must take the clips; a clip never replaces a file without --force.
            try OutputFile.prepare(board.settings.names.name(1), partial: nil, force: true)
        } else {
            try OutputFile.prepare(settings.output, partial: settings.partialPath, force: force)
        }
    }

    /// What interrupts do while recording to `output` (or, with triggers, its clips).
    private func signalPlan(_ progress: RecordProgress, board: TriggerBoard?, output: String) -> SignalPlan {
        var signals = progress.signalPlan()
        if let board {
            signals.countsTriggers = board.settings.kinds.contains(.signal)
            signals.restoresTerminal = board.settings.kinds.contains(.key)
        } else {
            // A second signal while finishing: the half-written final file goes, the partial one stays.
            signals.removeOnAbort = AtomicOutput.temporaryPath(for: output)
        }
        return signals
    }

    /// Opens the camera in the mode chosen for the request — before the output exists, so a device
    /// that cannot do the mode leaves nothing behind — or prepares the generated source.
    private func openSession(_ settings: RecordSettings) throws(HFRError) -> CaptureSession {
        do {
            return try CaptureSession.open(camera.map { .camera($0) } ?? .generated(settings.capture))
        } catch {
            throw .capture(error, of: Self.self)
        }
    }

    /// The settings for the mode the session was granted (a camera's, with its notes printed).
    private func settings(for session: CaptureSession) throws(HFRError) -> RecordSettings {
        let grant = session.granted
        var settings = self.settings(
            width: grant.width, height: grant.height, rate: grant.rate,
            pixelFormat: camera == nil ? self.settings.capture.pixelFormat : grant.pixelFormat)
        guard let camera, case .device(let path) = grant.source else { return settings }
        try Self.encodable(grant.width, grant.height, device: path)
        settings.capture.source = grant.source
        if camera.mode.rate == nil, grant.rate <= Rational(30) {
            Console.error("Note: this camera has no high-frame-rate mode (nothing above 30 fps)\n")
        }
        for line in grant.setupLines { Console.error(line + "\n") }
        return settings
    }

    static func defaultOutputName() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "hfr-\(formatter.string(from: Date())).mp4"
    }
}
