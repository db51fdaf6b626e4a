import Foundation
import HFRCapture
import HFRMedia
import HFRPipeline

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
        same pipeline as a camera; it takes any --size and --fps (max = 240).

        Exit codes: 0 ok (also after Ctrl-C), 64 usage, 65 bad data, 69 device unavailable,
        74 output cannot be written (disk full keeps what was captured), 1 other.
        """
    public static let options: [OptionSpec] = [
        .positional("OUTPUT", optional: true, help: "File to write (.mp4, .mov, .mkv); default hfr-DATE-TIME.mp4."),
        .value("device", "D", help: "V4L2 capture device path (/dev/videoN)."),
        .value("source", "test", help: "Record the built-in test source instead of a camera."),
        .value("fps", "N|max", help: "Frame rate, e.g. 120 or 60000/1001 (default: max)."),
        .value("size", "WxH", help: "Frame size (test source default: 1280x720)."),
        .value("height", "H", help: "Frame height with the preset width (2160, 1080, 720, 480)."),
        .value(
            "pixel-format", "F",
            help: "Pixel format the source delivers (nv12, yuyv422, mjpeg…); converted to I420 when needed."),
        .value("layers", "1-4", help: "Temporal layers (default: 3 at ≥ 120 fps, 2 at ≥ 60, 1 below)."),
        .value("bitrate", "B", help: "Target bitrate, e.g. 8M (default: from size and rate)."),
        .value("duration", "T", help: "Stop after T of media time (seconds or [HH:]MM:SS)."),
        .value("frames", "N", help: "Stop after N frames."),
        .value(
            "audio", "DEVICE|none",
            help: "Audio: the source's own (default), none, or a device: alsa:hw:1,0, pulse:NAME, hw:1."),
        .value("late-frames", "drop|queue", help: "When encoding falls behind: drop frames (default) or wait."),
        .flag("force", help: "Replace OUTPUT (and a leftover partial file) if they exist."),
        .flag("json", help: "Write the final report as JSON to stdout."),
    ]

    let settings: RecordSettings
    let json: Bool
    let force: Bool

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        let command = RecordCommand.self
        let source: CaptureSource
        switch (arguments.value("source"), arguments.value("device")) {
        case ("test"?, nil): source = .testPattern
        case (let s?, nil): throw .usage("unknown source '\(s)': the built-in source is 'test'", of: command)
        case (nil, let d?): source = .device(path: d)
        case (nil, nil): source = try RecordCommand.firstCaptureDevice()
        case (_?, _?): throw .usage("--source and --device exclude each other", of: command)
        }
        let fps = try arguments.value("fps", as: FrameRateChoice.self) ?? .max
        if arguments.value("size") != nil, arguments.value("height") != nil {
            throw .usage("--size and --height exclude each other", of: command)
        }
        var size = try arguments.value("size", as: FrameSize.self)
        if let h = try arguments.value("height", as: Int.self) {
            guard h > 0 else { throw .usage("--height must be positive", of: command) }
            size = .preset(height: h)
        }
        let rate: Rational
        switch (source, fps) {
        case (.testPattern, .max): rate = Rational(240)
        case (_, .exactly(let r)): rate = r
        case (.device, .max):
            throw .usage("--device needs --fps N and --size until mode selection (hfr formats) exists", of: command)
        }
        guard rate <= Rational(1000) else {
            throw .usage("--fps \(rate.compactDescription) is above 1000", of: command)
        }
        if case .device = source, size == nil {
            throw .usage("--device needs --size WxH until mode selection (hfr formats) exists", of: command)
        }
        let frame = size ?? FrameSize(width: 1280, height: 720)
        guard frame.width % 2 == 0, frame.height % 2 == 0, (16...7680).contains(frame.width),
            (16...4320).contains(frame.height)
        else {
            throw .usage(
                "--size \(frame.width)x\(frame.height) is not possible: even sizes from 16x16 to 7680x4320", of: command
            )
        }
        let layers = try arguments.value("layers", as: Int.self) ?? RecordSettings.defaultLayers(for: rate)
        guard (1...4).contains(layers) else { throw .usage("--layers must be 1 to 4", of: command) }
        let duration = try arguments.value("duration", as: Duration.self)?.seconds
        let frameLimit = try arguments.value("frames", as: Int.self)
        if duration != nil, frameLimit != nil {
            throw .usage("--duration and --frames exclude each other", of: command)
        }
        if let frameLimit, frameLimit <= 0 { throw .usage("--frames must be positive", of: command) }
        let late: RecordSettings.LateFrames
        switch arguments.value("late-frames") ?? "drop" {
        case "drop": late = .drop
        case "queue": late = .queue
        case let other: throw .usage("--late-frames must be drop or queue, not '\(other)'", of: command)
        }
        var includesAudio = true
        var audioDevice: AudioCaptureInput.Device?
        switch arguments.value("audio") {
        case nil: break
        case "none": includesAudio = false
        case let device?:
            // A capture device replaces the source's own audio.
            audioDevice = AudioCaptureInput.Device(device)
            includesAudio = false
        }
        let bitrate =
            try arguments.value("bitrate", as: Bitrate.self)?.bitsPerSecond
            ?? RecordCommand.defaultBitrate(width: frame.width, height: frame.height, rate: rate)
        // An IDR about every second, on a multiple of the layer pattern so each GOP starts at layer 0.
        let pattern = 1 << (layers - 1)
        let keyint = max(pattern, Int(rate.rounded()) / pattern * pattern)
        let output = arguments.positional("OUTPUT") ?? RecordCommand.defaultOutputName()
        settings = RecordSettings(
            capture: CaptureRequest(
                source: source, width: frame.width, height: frame.height, frameRate: rate,
                pixelFormat: arguments.value("pixel-format"), includesSourceAudio: includesAudio),
            output: output, temporalLayers: layers, bitrate: bitrate, keyframeInterval: keyint,
            encoderThreads: H264Encoder.Settings.defaultThreads(
                width: frame.width, height: frame.height, frameRate: rate),
            duration: duration, frameLimit: frameLimit, lateFrames: late, queueCapacity: 16,
            showsStatus: Console.isTerminal(2), audioDevice: audioDevice)
        json = arguments.flag("json")
        force = arguments.flag("force")
    }

    public func run() throws(HFRError) {
        try OutputFile.prepare(settings.output, partial: settings.partialPath, force: force)
        StopSignal.install()
        let pipeline = RecordPipeline(settings: settings)
        if settings.showsStatus {
            Console.error("Recording to \(settings.partialPath) (Ctrl-C stops and finalizes \(settings.output))\n")
        }
        let settings = self.settings
        let status: ((RecordStats, Int) -> Void)? =
            settings.showsStatus ? { stats, depth in RecordStatus.show(stats, depth, settings) } : nil
        let report: RecordReport
        do {
            report = try pipeline.run(status: status)
        } catch {
            if settings.showsStatus { Console.error("\n") }
            throw RecordStatus.error(for: error, settings: settings)
        }
        if settings.showsStatus { Console.error("\r\u{1B}[K") }
        Console.error(RecordStatus.summary(report) + "\n")
        if json { Console.output(RecordStatus.json(report).rendered + "\n") }
    }

    static func defaultBitrate(width: Int, height: Int, rate: Rational) -> Int {
        let bits = Double(width * height) * rate.doubleValue * 0.06
        return Int(min(max(bits, 500_000), 100_000_000))
    }

    static func defaultOutputName() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "hfr-\(formatter.string(from: Date())).mp4"
    }

    /// The first V4L2 capture node, or a clear error suggesting the test source.
    static func firstCaptureDevice() throws(HFRError) -> CaptureSource {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        let first = nodes.filter { $0.hasPrefix("video") }.sorted {
            (Int($0.dropFirst(5)) ?? .max) < (Int($1.dropFirst(5)) ?? .max)
        }.first
        guard let first else {
            throw HFRError("no camera found (no /dev/video*); try --source test", exitCode: .unavailable)
        }
        return .device(path: "/dev/" + first)
    }
}
