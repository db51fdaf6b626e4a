import HFRMedia
import HFRPipeline

/// `hfr record`'s trigger options: `--pre-trigger`, `--post-trigger`, `--trigger`, the detectors'
/// settings and `--clips`; nil when none makes the recording a triggered one.
enum TriggerArguments {
    static let options: [OptionSpec] = [
        .value(
            "pre-trigger", "T",
            help: "Keep T before each trigger (a ring of encoded frames in RAM) and write clips, not one file."),
        .value("post-trigger", "T", help: "Keep T after each trigger (default 2s; a trigger inside extends the clip)."),
        .value(
            "trigger", "LIST",
            help: "What fires a clip, comma-separated: signal (SIGUSR1), key (Enter or space), http "
                + "(the preview's button, POST /trigger), motion, audio (default: key,signal, and http with --preview).",
            choices: TriggerKind.allCases.map(\.rawValue)),
        .value(
            "motion-threshold", "PERCENT",
            help: "Motion trigger: mean change of the downscaled luma from the previous frame (default 5)."),
        .value("motion-region", "X,Y,W,H", help: "Motion trigger: watch only this rectangle (pixels)."),
        .value("audio-threshold", "DBFS", help: "Audio trigger: the level that fires it (default -20 dBFS)."),
        .value("clips", "N", help: "Stop recording once N clips are written."),
    ]

    /// The trigger settings, if `--pre-trigger`, `--post-trigger` or `--trigger` is given.
    static func parse(
        _ arguments: ParsedArguments, output: String, hasPreview: Bool, hasAudio: Bool
    ) throws(HFRError) -> TriggerSettings? {
        let names = ["pre-trigger", "post-trigger", "trigger"]
        guard names.contains(where: { arguments.value($0) != nil }) else {
            for name in ["motion-threshold", "motion-region", "audio-threshold", "clips"]
            where arguments.value(name) != nil {
                throw usage("--\(name) goes with a triggered recording (--trigger, --pre-trigger)")
            }
            return nil
        }
        let pre = try time(arguments, "pre-trigger", default: Rational(2), limit: Rational(600))
        let post = try time(arguments, "post-trigger", default: Rational(2), limit: Rational(3600))
        guard pre + post > Rational(0) else { throw usage("--pre-trigger and --post-trigger are both 0") }
        let kinds = try self.kinds(arguments, hasPreview: hasPreview, hasAudio: hasAudio)
        if let problem = ClipNames.problem(in: output) { throw usage("OUTPUT: \(problem)") }
        var settings = TriggerSettings(
            preTrigger: pre, postTrigger: post, kinds: kinds, names: ClipNames(template: output))
        if let text = arguments.value("motion-threshold") {
            guard kinds.contains(.motion) else { throw usage("--motion-threshold goes with --trigger motion") }
            guard let value = Double(text), value > 0, value <= 100 else {
                throw usage("--motion-threshold must be a percentage above 0 and at most 100, not '\(text)'")
            }
            settings.motionThreshold = value
        }
        if let text = arguments.value("motion-region") {
            guard kinds.contains(.motion) else { throw usage("--motion-region goes with --trigger motion") }
            let fields = text.split(separator: ",").compactMap { Int($0) }
            guard fields.count == 4, fields[0] >= 0, fields[1] >= 0, fields[2] > 0, fields[3] > 0 else {
                throw usage("--motion-region must be X,Y,W,H in pixels (W and H above 0), not '\(text)'")
            }
            settings.motionRegion = PixelRegion(x: fields[0], y: fields[1], width: fields[2], height: fields[3])
        }
        if let text = arguments.value("audio-threshold") {
            guard kinds.contains(.audio) else { throw usage("--audio-threshold goes with --trigger audio") }
            guard let value = Double(text.hasSuffix("dBFS") ? String(text.dropLast(4)) : text), value <= 0,
                value >= -120
            else {
                throw usage("--audio-threshold must be a level from -120 to 0 dBFS, not '\(text)'")
            }
            settings.audioThreshold = value
        }
        if let count = try arguments.value("clips", as: Int.self) {
            guard count > 0 else { throw usage("--clips must be positive") }
            settings.clipLimit = count
        }
        return settings
    }

    /// Whether `region` lies inside a `width` × `height` picture (checked once the mode is known).
    static func check(_ region: PixelRegion?, width: Int, height: Int) throws(HFRError) {
        guard let r = region else { return }
        guard r.x + r.width <= width, r.y + r.height <= height else {
            throw usage(
                "--motion-region \(r.x),\(r.y),\(r.width),\(r.height) is not inside the \(width)x\(height) picture")
        }
    }

    /// The pre-trigger ring holds about the bitrate times (pre-trigger + a key-frame interval of
    /// 1 s + 1 s of encoder lag): refused before capture when that is more than half of the RAM
    /// available now (`MemAvailable`), so a long ring at a high bitrate cannot exhaust memory.
    ///
    /// With `--buffer ram` the ring holds raw frames instead (`RawTriggerRing`): refused when
    /// they alone would fill the RAM budget (2 bytes a pixel, a packed 4:2:2 camera's).
    static func checkRing(_ settings: TriggerSettings, record: RecordSettings) throws(HFRError) {
        if let budget = record.ramBudget {
            let c = record.capture
            let frames = RawTriggerRing.capacity(pre: settings.preTrigger, rate: c.frameRate)
            let bytes = frames * c.width * c.height * 2
            guard bytes > budget else { return }
            throw usage(
                "--pre-trigger \(settings.preTrigger.compactDescription) s of raw \(c.width)x\(c.height) frames at "
                    + "\(c.frameRate.compactDescription) fps needs \(BufferArgument.gibibytes(bytes)), more than "
                    + "--buffer ram's \(BufferArgument.gibibytes(budget)): shorten it or give more")
        }
        let bitrate = record.bitrate
        let seconds = settings.preTrigger + Rational(2)
        let bytes = (Rational(Int64(bitrate) / 8) * seconds).rounded()
        guard let available = SystemMemory.read()?.available, bytes > available / 2 else { return }
        throw usage(
            "--pre-trigger \(settings.preTrigger.compactDescription) s at \(bitrate / 1_000_000) Mb/s needs about "
                + "\(DecimalText.fixed(Double(bytes) / 1e9, digits: 1)) GB of RAM for its ring, more than half of the "
                + "\(DecimalText.fixed(Double(available) / 1e9, digits: 1)) GB available: shorten it or lower --bitrate"
        )
    }

    private static func kinds(
        _ arguments: ParsedArguments, hasPreview: Bool, hasAudio: Bool
    ) throws(HFRError) -> Set<TriggerKind> {
        guard let text = arguments.value("trigger") else {
            return hasPreview ? [.key, .signal, .http] : [.key, .signal]
        }
        var kinds: Set<TriggerKind> = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = TriggerKind(rawValue: String(word)) else {
                throw usage(
                    "unknown trigger '\(word)': the triggers are "
                        + TriggerKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kinds.insert(kind)
        }
        if kinds.contains(.http), !hasPreview {
            throw usage("--trigger http is the preview's button: give --preview [HOST:]PORT")
        }
        if kinds.contains(.audio), !hasAudio {
            throw usage("--trigger audio listens to the recording's audio, and --audio none leaves none")
        }
        return kinds
    }

    private static func time(
        _ arguments: ParsedArguments, _ name: String, default value: Rational, limit: Rational
    ) throws(HFRError) -> Rational {
        guard let text = arguments.value(name) else { return value }
        guard let seconds = Rational(parsingTime: text), seconds >= Rational(0) else {
            throw usage("invalid value '\(text)' for '--\(name)': expected a time: " + Rational.timeForms)
        }
        guard seconds <= limit else {
            throw usage("--\(name) \(text) is above \(limit.compactDescription) s (the ring holds it in RAM)")
        }
        return seconds
    }

    private static func usage(_ text: String) -> HFRError { .usage(text, of: RecordCommand.self) }
}
