import Foundation
import HFRExport
import HFRInterpolation
import HFRMedia
import HFRPipeline

/// `hfr export`: slow-motion conform, lossless frame-rate decimation, speed changes and ramps.
public struct ExportCommand: Command {
    public static let name = "export"
    public static let abstract = "Retime a recording: slow motion, lower real-time rates, speed ramps."
    public static let discussion = """
        Time model: C is the capture rate (com.hfr.capture.fps, com.android.capture.fps, Samsung's smta
        box, else measured from timestamps), O the output rate, S the playback speed (1 = real time,
        0.25 = 4x slower). Each output frame advances the source by C·S/O frames.

          --conform O   every frame kept, shown at O fps: slow motion C/O. Video stream-copied,
                        timestamps rescaled exactly.
          --fps O       real time at O fps: C/O must be a power of two the temporal layers allow;
                        the upper layers are dropped, kept pictures are bit-identical, audio copied.
          --speed S     speed S at --fps O (default C·S: every frame kept).
          --ramp SPEC   speeds over source time, e.g. 0-2@1,2-4@0.25,4-@1 (times; the last end
                        may be left open; after a closed last segment the rest plays at speed 1).
                        Lossless per segment when C·S/O is a power of two; with temporal layers the
                        boundaries snap to base-layer frames, the only places where keeping more
                        layers again is safe. --ramp auto: the slow-motion segments a Samsung phone
                        recorded (SEF), played as the phone does: real time outside, 1/2^n inside.
                        A segment may ease in: '0-2@1,2-4@0.25 ease 0.5s,4-@1 ease 300ms' moves the
                        speed smoothly (smoothstep) from the previous segment's over its first 0.5 s
                        (as short steps, each re-encoded; the output lasts the curve's integral of
                        1/speed to the microsecond, and audio follows the curve).
          --range A-B   source seconds to keep (A- for "to the end"). Copying into MP4/MOV, decoding
                        starts at the keyframe before A and an edit list hides the frames before A
                        (an exact cut); into MKV the start snaps to that keyframe (stated on stderr).

        Times (--range, --ramp bounds) are seconds (5, 2.5, 5s, 500ms) or clock times (1:30, 1:02:03.5).

        A raw H.264/HEVC stream (.h264, .h265: no container, no frame times) needs its times:
        --timestamps FILE reads one time in milliseconds per frame, in presentation order, after a
        '# timestamp format v2' (or 'timecode') header, as rpicam-vid --save-pts and mkvmerge write
        them; gaps (dropped frames) stay gaps of whole frame periods, the capture rate being the
        frames' period (their average when no period is common to 90 % of them). --input-fps R
        gives every frame 1/R s; with B-frames the stream is decoded once to find where each frame
        is shown. The two exclude each other and are refused for containers (their own timestamps
        rule).

        --reencode auto (default) decodes and re-encodes what the lossless rules cannot reach (no
        layers, odd ratios, other encoders' files); never refuses and names the nearest lossless
        choice; always re-encodes. A re-encode is a delivery: it is written with an offline encoder
        of libavcodec in the input's codec family (H.264: libx264, HEVC: libx265, AV1: SVT-AV1 or
        libaom, VP9: libvpx-vp9, ProRes: prores_ks, FFV1; H.264 for others; what the container
        stores), keeping its bit depth, chroma and colour description, at a visually lossless
        constant quality (x264 CRF 18, x265 CRF 20, AV1 CRF 30, VP9 CRF 24). --codec chooses the
        codec (a codec other than the input's re-encodes); openh264 is hfr's layered encoder as
        hfr record writes (temporal layers, so --fps can drop them again; 8-bit 4:2:0, a bitrate).
        --quality crf:N (the encoder's scale, lower is better: x264 and x265 0-51, VP9 and AV1
        0-63), bitrate:B (average bits per second: 8M, 2500k) or lossless (x264 qp 0, x265/VP9/libaom
        lossless modes, FFV1); prores takes none, ffv1 lossless only, openh264 a bitrate only. MP4
        holds h264, hevc, av1, vp9 and openh264; MOV h264, hevc, prores and openh264; MKV all; WebM
        av1 and vp9. Any other codec, container or quality pair is refused before any work. The
        stretches of a ramp re-encoded between copied ones use the recording's own encoder
        settings, so both share one configuration; --quality does not apply to them.

        --interpolate flow (default) makes the frames a speed below the capture rate needs (C·S/O < 1:
        each output frame advances the source by less than one captured frame) from motion: dense
        optical flow both ways between the two captured frames around each new one, both warped to its
        time and blended where the flows agree; blend cross-fades the two; repeat shows the earlier one
        again. Only re-encoded segments need them; an output holding made frames is tagged
        com.hfr.interpolated (the method) and the --json report counts them (video.interpolatedFrames).
        None is made across a scene cut (two neighbours whose 32x32 luma thumbnails have an SSIM below
        0.2, RIFE's rule): --cut-fill repeat (default) shows the frame before the cut until the one
        after it, crossfade cross-fades the two. The notes and the report list the cuts (video.cuts:
        source and output seconds); --dry-run, which decodes nothing, cannot see them.

        --fill-drops flow|repeat makes the frames the capture dropped (gaps of whole frame periods in
        the timestamps: an hfr recording's drops, a --timestamps file's gaps): each output frame in
        a gap, farther than half a frame period from both captured frames around it, is made between
        them (flow, as --interpolate flow; blended for pictures too small for it) or shows the earlier
        one again (repeat), so the output runs at a constant rate with even motion, whatever the mode
        (--conform, --fps, --speed, --ramp). Copying cannot insert frames: it re-encodes, and excludes
        --reencode never. The output's com.hfr.filled-drops tag lists the frames made (output frame
        indices, 120-122,300), hfr probe reports them, and --json too (video.filledDrops).

        --shutter DEG gives the output the motion blur of a DEG shutter (360: open all the time, 180:
        half of each output frame), from the frames the camera captured: each output frame is the
        average of the captured frames exposed while its shutter is open (from its time, DEG/360 of
        the way to the next), each weighted by how long, sample by sample in the pictures' own
        values (as FFmpeg's tmix). 240 fps shown at 24 fps with 180°: frames 0-4 of every 10. It
        re-encodes; where an output frame advances the source by less than a captured frame the
        shutter sees one frame and the frames are made as without it.

        --deflicker auto|50|60 takes the flicker of lamps on mains power out of the pictures: they pulse
        at twice the mains frequency (100 Hz under 50 Hz mains, 120 Hz under 60 Hz), which a high-speed
        camera sees as frames brighter and darker than the next and, with a rolling shutter, as bands
        that crawl down the picture. hfr decodes the input once to measure every picture's brightness
        in 16 bands, fits the flicker (its frequency and harmonics on the frames' real times, so rates
        that alias it, 100 Hz at 120 fps, are handled alike) over a sliding window of 0.4 s with a
        slow trend and a step for each sudden change of light (which stays in the picture), and
        divides each row of each picture by the flicker's gain there (chroma too where it flickers).
        auto finds 100 or 120 Hz and leaves the video as it is when neither is there (depth under
        1 %); 50 or 60 takes that mains' flicker out whatever its depth. It re-encodes (the delivery
        encoder, visually lossless by default), excludes --reencode never, and the plan, the summary
        and --json (video.deflicker, plan.deflicker) give the frequency and the depth before and after
        (--dry-run measures it too: it decodes the input for this).

        A copied H.264/HEVC stream that is retimed states its new rate in its parameter sets (SPS,
        VPS); the coded pictures are untouched.

        --audio spectral (default): Rubber Band R3, offline, pitch kept; time-domain: SoundTouch's
        WSOLA; varispeed: resampled, pitch follows speed (a 192 kHz recording slowed 8× brings 40 kHz
        down to 5 kHz); mute: no audio. Sound stays within 10 ms of its picture; audio lasts as long
        as the video, to the sample, and each ramp segment's audio is exactly as long as its video.
        Audio that starts before the first video frame (a microphone started first; 50 ms or more)
        keeps its lead, as an editor keeps a clip's offset: the output's audio starts at 0 and the
        video the lead later (played at the first segment's speed: 0.5 s at --conform 30 of 120 fps
        is 2 s); a --range that starts after the first frame starts there.
        It keeps its codec where the container stores it (PCM, FLAC in MKV, ALAC), its rate, bit
        depth and channel layout; otherwise AAC (Vorbis in WebM), and the plan says why.

        The output records what was done: com.android.capture.fps (in MP4/MOV a float32, as Android
        writes it) and com.hfr.capture.fps (frames per second of real time it holds),
        com.hfr.export.speed (the time map), com.hfr.export.slowmotion; encoder "hfr VERSION",
        com.hfr.version, and creation_time: the input's, else its file's modification time (the same
        export gives the same bytes). It is written under a temporary name and renamed when complete; the input is never modified.

        The input's display matrix (rotation, as phones write it) is kept, copied or re-encoded;
        --rotate 0|90|180|270 replaces it (degrees clockwise, as hfr record --rotate), 0 removes it.
        In .mkv it is the video track's Projection roll (FFmpeg 5.1's muxer writes none; hfr adds it).

        --dry-run prints the plan and writes nothing: per segment of the time map the source span,
        speed, copied or re-encoded, frames kept and dropped per layer, output frames; then the output's
        frames, rate, length and audio, and why it re-encodes; then every track (codec, copied,
        retimed, re-encoded, stretched or left out, packets, seconds). It is the export itself with a
        sink that counts in place of the muxer (same refusals, same exit codes), so the counts and the
        lengths are those the export then writes. With --json: schema hfr.export-plan/1
        (docs/export-json.md), also the 'plan' member of the export's own --json summary.

        Exit codes: 0 ok, 64 usage (also ramps that overlap or run backwards, speeds ≤ 0, an ease on
        the first segment or longer than its segment), 65 bad
        input (truncated, corrupt, capture rate unknown, a codec OUTPUT's container cannot hold, a
        timestamps file with a bad line or not one time per frame) or refused by --reencode never, 74
        output cannot be written or exists, 130 interrupted (Ctrl-C, SIGTERM: nothing written), 1 other.
        """
    public static let options: [OptionSpec] = [
        .positional("INPUT", help: "Recording to export (MP4, MOV, MKV; any codec FFmpeg reads)."),
        .positional("OUTPUT", help: "File to write (.mp4, .mov, .mkv, .webm)."),
        .value("conform", "FPS", help: "Slow motion: every frame shown at FPS (e.g. 30)."),
        .value("fps", "FPS", help: "Output frame rate; alone: real time with upper layers dropped."),
        .value("speed", "S", help: "Playback speed (0.25 = 4x slower, 2 = twice as fast)."),
        .value(
            "ramp", "SPEC", help: "Speeds over source seconds: 0-2@1,2-4@0.25 ease 0.5s,4-@1; auto: as recorded.",
            choices: ["auto"]),
        .value("range", "A-B", help: "Keep source seconds A to B (A- to the end)."),
        RawTimingArguments.timestampsOption,
        RawTimingArguments.inputRateOption,
        .value(
            "audio", "ALG", help: "spectral (default), time-domain, varispeed or mute.",
            choices: ExportSettings.AudioAlgorithm.allCases.map(\.rawValue)),
        .value(
            "reencode", "auto|never|always", help: "When lossless copying cannot do it (default auto).",
            choices: ExportSettings.ReencodePolicy.allCases.map(\.rawValue)),
        .value(
            "interpolate", "METHOD",
            help: "New frames below the capture rate: flow (default, motion), blend or repeat.",
            choices: InterpolationMethod.allCases.map(\.rawValue)),
        .value(
            "codec", "CODEC",
            help: "Codec of re-encoded video: h264, hevc, av1, vp9, prores, ffv1, openh264 (default: the input's).",
            choices: OutputCodec.allCases.map(\.rawValue)),
        .value(
            "quality", "Q",
            help: "Re-encode quality: crf:N, bitrate:B (8M, 2500k) or lossless (default crf, visually lossless).",
            choices: ["lossless"]),
        .value(
            "shutter", "DEG", help: "Motion blur: average the frames a DEG shutter sees (180 = half of each frame)."),
        .value(
            "deflicker", "auto|50|60",
            help: "Take mains flicker out: auto finds 100 or 120 Hz; 50 or 60 names the mains (re-encodes).",
            choices: ["auto", "50", "60"]),
        .value(
            "fill-drops", "flow|repeat", help: "Make the frames the capture dropped (re-encodes).",
            choices: ExportSettings.DropFill.allCases.map(\.rawValue)),
        .value(
            "cut-fill", "repeat|crossfade",
            help: "Across a scene cut, in place of made frames: repeat (default) or crossfade.",
            choices: ExportSettings.CutFill.allCases.map(\.rawValue)),
        RotateArgument.option(help: "Display rotation, degrees clockwise (0 clears it; default: the input's)."),
        .value(
            "split-part", "video|rest",
            help: "One unit of a job split over workers: only the video of --range, or every other track.",
            choices: ExportSettings.SplitPart.allCases.map(\.rawValue)),
        .flag("force", help: "Replace OUTPUT if it exists."),
        .flag("json", help: "Write a summary as JSON to stdout (schema hfr.export/1)."),
        .flag("dry-run", help: "Print the plan (frames kept per segment, output length) and write nothing."),
    ]

    let settings: ExportSettings
    /// `--ramp auto`: the map in `settings` is a stand-in for the one recorded in the input.
    let isRecordedRamp: Bool
    let rawTiming: RawTimingArguments
    let json: Bool
    let force: Bool
    let dryRun: Bool

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        let command = ExportCommand.self
        let input = arguments.positional("INPUT")!
        let output = arguments.positional("OUTPUT")!
        guard input != output else {
            throw .usage("OUTPUT must differ from INPUT (inputs are never modified)", of: command)
        }
        let mode = try Self.mode(arguments)
        let range = try Self.range(arguments)
        guard let audio = ExportSettings.AudioAlgorithm(rawValue: arguments.value("audio") ?? "spectral") else {
            throw .usage("--audio must be spectral, time-domain, varispeed or mute", of: command)
        }
        guard let reencode = ExportSettings.ReencodePolicy(rawValue: arguments.value("reencode") ?? "auto") else {
            throw .usage("--reencode must be auto, never or always", of: command)
        }
        guard let interpolation = InterpolationMethod(rawValue: arguments.value("interpolate") ?? "flow") else {
            throw .usage("--interpolate must be flow, blend or repeat", of: command)
        }
        guard let cutFill = ExportSettings.CutFill(rawValue: arguments.value("cut-fill") ?? "repeat") else {
            throw .usage("--cut-fill must be repeat or crossfade", of: command)
        }
        var settings = ExportSettings(
            input: input, output: output, mode: mode, range: range, audio: audio, reencode: reencode)
        settings.interpolation = interpolation
        try Self.readPictureOptions(arguments, reencode: reencode, into: &settings)
        settings.cutFill = cutFill
        settings.rotation = try RotateArgument.parse(arguments, output: output, of: command)
        // Before the input is opened; the plan asks the same (`ExportPlan.neverConflict`).
        if let conflict = ExportPlan.neverConflict(settings) { throw .usage(conflict, of: command) }
        // What OUTPUT's container can hold is known before any file is read.
        try OutputFile.checkContainer(output, among: Container.exportExtensions, of: command)
        do {
            try settings.delivery.check(output: output)
        } catch {
            throw Self.error(error, settings: settings)
        }
        self.settings = settings
        isRecordedRamp = arguments.value("ramp") == "auto"
        rawTiming = try RawTimingArguments(arguments, of: command)
        json = arguments.flag("json")
        force = arguments.flag("force")
        dryRun = arguments.flag("dry-run")
    }

    /// `--codec`, `--quality`, `--shutter` and `--fill-drops` into `settings` (the last two need
    /// re-encoding, which `reencode` may exclude).
    static func readPictureOptions(
        _ arguments: ParsedArguments, reencode: ExportSettings.ReencodePolicy, into settings: inout ExportSettings
    ) throws(HFRError) {
        let command = ExportCommand.self
        if let text = arguments.value("codec") {
            guard let codec = OutputCodec(rawValue: text) else {
                throw .usage(
                    "--codec must be \(OutputCodec.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'",
                    of: command)
            }
            settings.delivery.codec = codec
        }
        if let text = arguments.value("quality") {
            guard let quality = VideoQuality(parsing: text) else {
                throw .usage(
                    "--quality must be crf:N (0-63), bitrate:B (bits per second: 8M, 2500k) or lossless, not '\(text)'",
                    of: command)
            }
            settings.delivery.quality = quality
        }
        if let text = arguments.value("shutter") {
            guard let angle = Rational(parsing: text), angle > Rational(0), angle <= Rational(360) else {
                throw .usage(
                    "--shutter must be an angle in degrees above 0 and up to 360 (180, 172.8), not '\(text)'",
                    of: command)
            }
            settings.shutter = angle
        }
        if let text = arguments.value("deflicker") {
            switch text {
            case "auto": settings.deflicker = .auto
            case "50", "60": settings.deflicker = .mains(Int(text)!)
            default:
                throw .usage(
                    "--deflicker must be auto, 50 or 60 (the mains frequency in Hz), not '\(text)'", of: command)
            }
        }
        if let text = arguments.value("split-part") {
            guard let part = ExportSettings.SplitPart(rawValue: text) else {
                throw .usage("--split-part must be video or rest, not '\(text)'", of: command)
            }
            settings.splitPart = part
        }
        if let text = arguments.value("fill-drops") {
            guard let fill = ExportSettings.DropFill(rawValue: text) else {
                throw .usage("--fill-drops must be flow or repeat", of: command)
            }
            settings.fillDrops = fill
        }
    }

    /// What to do, from `--conform`, `--fps`, `--speed` and `--ramp` (which exclude one another
    /// as the time model says).
    static func mode(_ arguments: ParsedArguments) throws(HFRError) -> ExportSettings.Mode {
        let command = ExportCommand.self
        func rate(_ name: String) throws(HFRError) -> Rational? {
            guard let text = arguments.value(name) else { return nil }
            guard let r = Rational(parsing: text), r > Rational(0) else {
                throw .usage(
                    "--\(name) must be a positive frame rate such as 30 or 30000/1001, not '\(text)'", of: command)
            }
            return r
        }
        let conform = try rate("conform")
        let fps = try rate("fps")
        var speed: Rational? = nil
        if let text = arguments.value("speed") {
            guard let s = Rational(parsing: text) else {
                throw .usage("--speed must be a number such as 0.25 or 1/4, not '\(text)'", of: command)
            }
            guard s > Rational(0) else { throw .usage("--speed must be positive, not \(text)", of: command) }
            speed = s
        }
        var ramp: TimeMap? = nil
        if arguments.value("ramp") == "auto" {
            ramp = TimeMap(speed: Rational(1))  // read from the input in `run`
        } else if let text = arguments.value("ramp") {
            do {
                ramp = try TimeMap(parsing: text)
            } catch {
                throw .usage("--ramp \(text): \(error.description)", of: command)
            }
        }
        switch (conform, fps, speed, ramp) {
        case (let c?, nil, nil, nil): return .conform(fps: c)
        case (_?, _, _, _): throw .usage("--conform excludes --fps, --speed and --ramp", of: command)
        case (nil, _, _?, _?): throw .usage("--speed and --ramp exclude each other", of: command)
        case (nil, let f, let s?, nil): return .speed(s, fps: f)
        case (nil, let f, nil, let r?): return .ramp(r, fps: f)
        case (nil, let f?, nil, nil): return .realTime(fps: f)
        case (nil, nil, nil, nil):
            throw .usage("say what to do: --conform FPS, --fps FPS, --speed S or --ramp SPEC", of: command)
        }
    }

    /// `--range A-B` in source seconds (`A-`: to the end).
    static func range(_ arguments: ParsedArguments) throws(HFRError) -> (start: Rational, end: Rational?)? {
        guard let text = arguments.value("range") else { return nil }
        let invalid = HFRError.usage(
            "--range must be A-B (e.g. 1.5-4, 2-, 0:05-1:30), A and B each \(Rational.timeForms); not '\(text)'",
            of: ExportCommand.self)
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        func seconds(_ s: Substring) -> Rational? { s.isEmpty ? nil : Rational(parsingTime: String(s)) }
        guard parts.count == 2, let a = parts[0].isEmpty ? Rational(0) : seconds(parts[0]) else { throw invalid }
        let b = seconds(parts[1])
        if !parts[1].isEmpty, b == nil { throw invalid }
        if let b, b <= a { throw .usage("--range \(text) runs backwards or is empty", of: ExportCommand.self) }
        return (a, b)
    }

    public func run() throws(HFRError) {
        let (settings, size) = try resolved()
        if dryRun {
            try OutputFile.checkDirectory(of: settings.output)
            let plan = try Self.plan(settings, fileSize: size)
            // The text lists the notes; beside JSON they go to stderr, as the export's do.
            if json { for note in plan.notes { Console.error("Note: \(note)\n") } }
            Console.output(json ? ExportPlanJSON.document(plan).rendered + "\n" : ExportPlanText.render(plan))
            return
        }
        try OutputFile.prepare(settings.output, partial: nil, force: force)
        var signals = SignalPlan(.stop)
        signals.removeOnAbort = AtomicOutput.temporaryPath(for: settings.output)
        signals.abortMessage = ProgressLine.abortPrefix + "hfr: second interrupt: stopped at once; nothing written\n"
        Signals.install(signals)
        let progress = ExportProgress()
        progress.analysing()
        let parent = ParentWatch.current()
        let pipeline = ExportPipeline(
            settings: settings, shouldStop: { Signals.isStopRequested || parent.isOrphaned })
        pipeline.measuring = { progress.measuring($0) }
        let report: ExportReport
        do {
            report = try pipeline.run(fileSize: size) { progress.show($0) }
        } catch {
            progress.clear()
            throw ExportCommand.error(error, settings: settings)
        }
        progress.clear()
        for note in report.notes { Console.error("Note: \(note)\n") }
        Console.error(ExportJSON.summaryLine(report) + "\n")
        if json { Console.output(ExportJSON.document(report).rendered + "\n") }
    }

    /// The settings completed from the input (`--timestamps`, `--ramp auto`) and the input's size,
    /// after the checks that read no packet: the output's container, no input as the output.
    func resolved() throws(HFRError) -> (ExportSettings, Int64) {
        var settings = settings
        try OutputFile.checkTarget(
            settings.output, inputs: [settings.input] + [rawTiming.timestampsPath].compactMap { $0 }, of: Self.self)
        settings.timing = try rawTiming.timing()
        let size = try InputFile.validate(settings.input)
        if isRecordedRamp, case .ramp(_, let fps) = settings.mode {
            do {
                let map = try RecordedRamp.timeMap(input: settings.input)
                settings.mode = .ramp(map, fps: fps)
                Console.error("Note: --ramp auto: the recorded slow-motion segments give \(map)\n")
            } catch {
                throw ExportCommand.error(error, settings: settings)
            }
        }
        return (settings, size)
    }

    /// The plan, made as the export makes it, with nothing written (`--dry-run`, `hfr batch --dry-run`).
    static func plan(_ settings: ExportSettings, fileSize: Int64) throws(HFRError) -> ExportPreview {
        Signals.install(SignalPlan(.stop))
        do {
            return try ExportPipeline(settings: settings, shouldStop: { Signals.isStopRequested })
                .preview(fileSize: fileSize)
        } catch {
            throw ExportCommand.error(error, settings: settings)
        }
    }

    /// One line and the exit code of SPEC.md for each way an export can fail.
    static func error(_ failure: ExportFailure, settings: ExportSettings) -> HFRError {
        switch failure {
        case .badInput(let cause): return .badInput(settings.input, cause)
        case .refused(let cause): return HFRError("\(settings.input): \(cause)", exitCode: .dataError)
        case .usage(let cause): return .usage(cause, of: ExportCommand.self)
        case .unavailable(let cause): return HFRError(cause, exitCode: .unavailable)
        case .reading(let f): return .reading(settings.input, f)
        case .writing(let f):
            if f.isOutputSideFailure { return .io(settings.output, "\(f.message) (\(f.operation))") }
            // The muxer or encoder refused what the input gave it (a timestamp it cannot hold …).
            return .badInput(settings.input, "cannot be written to \(settings.output) (\(f.description))")
        case .failed(let f):
            return .failed(f, input: settings.input, output: settings.output, command: ExportCommand.self)
        case .interrupted: return HFRError("\(settings.output): interrupted; nothing written", exitCode: .interrupted)
        }
    }
}
