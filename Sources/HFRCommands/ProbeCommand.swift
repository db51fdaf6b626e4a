import HFRMedia
import HFRProbe

/// `hfr probe INPUT [--json] [--frames]`: streams, capture rate and H.264 temporal layers.
public struct ProbeCommand: Command {
    public static let name = "probe"
    public static let abstract = "Show streams, capture rate, temporal layers and droppable frames of a file."
    public static let discussion = """
        Reads every packet without decoding. For H.264 it reads each frame's nal_ref_idc, slice type
        and SVC temporal_id (prefix NAL units), and whether the container marks it disposable (sdtp).
        The capture rate comes from com.android.capture.fps or hfr's own tag, else from timestamps.

        A raw H.264/HEVC stream has no frame times; --timestamps FILE (rpicam-vid --save-pts,
        timestamp format v2) or --input-fps R gives them, as for export (containers refuse both).

        --json writes the document described in docs/probe-json.md (schema "hfr.probe/1").

        Exit codes: 0 ok, 64 usage, 65 not media / truncated / corrupt, 74 cannot read the file.
        """
    public static let options: [OptionSpec] = [
        .positional("INPUT", help: "Media file to inspect (MP4, MOV, MKV, raw H.264, …)."),
        .flag("json", help: "Write machine-readable JSON to stdout."),
        .flag("frames", help: "List every video frame (time, size, slice type, nal_ref_idc, layer)."),
        RawTimingArguments.timestampsOption,
        RawTimingArguments.inputRateOption,
    ]

    let input: String
    let json: Bool
    let listFrames: Bool
    let rawTiming: RawTimingArguments

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        input = arguments.positional("INPUT")!
        json = arguments.flag("json")
        listFrames = arguments.flag("frames")
        rawTiming = try RawTimingArguments(arguments, of: ProbeCommand.self)
    }

    public func run() throws(HFRError) {
        let size = try InputFile.validate(input)
        let timing = try rawTiming.timing()
        if timing != nil { try RawTimingArguments.checkRawStream(input, of: ProbeCommand.self) }
        let output = BufferedOutput()
        if json {
            output.write("{" + ProbeJSON.header(path: input).map(member).joined(separator: ",\n"))
            if listFrames { output.write(",\n\"frames\":[\n") }
        } else if listFrames {
            output.write(ProbeText.frameHeader())
        }
        var first = true
        let onFrame: ((ProbedFrame) -> Void)? =
            !listFrames
            ? nil
            : json
                ? { frame in
                    output.write((first ? "" : ",\n") + ProbeJSON.frame(frame).rendered)
                    first = false
                }
                : { frame in output.write(ProbeText.frame(frame)) }
        var report: ProbeReport
        do {
            report = try Prober.probe(path: input, fileSize: size, timing: timing, onFrame: onFrame)
            report.flicker = FlickerProbe.measure(MediaInput(path: input, timing: timing), report: report)
        } catch {
            throw HFRError.probing(input, error)
        }
        if json {
            if listFrames { output.write("\n]") }
            output.write(",\n" + ProbeJSON.summary(report).map(member).joined(separator: ",\n") + "\n}\n")
        } else {
            output.write(ProbeText.summary(report))
        }
        output.flush()
    }

    private func member(_ pair: (String, JSONValue)) -> String {
        JSONValue.string(pair.0).rendered + ":" + pair.1.rendered
    }
}
