import HFRMedia

/// `--rotate 0|90|180|270` (record and export): degrees clockwise a viewer turns the picture,
/// written as the MP4/MOV display matrix (`DisplayRotation`); no pixel is re-encoded for it.
enum RotateArgument {
    static func option(help: String) -> OptionSpec { .value("rotate", "0|90|180|270", help: help) }

    /// The value of `--rotate`, nil when not given. A usage error for any other value, and for a
    /// turn into Matroska: FFmpeg 5.1's Matroska muxer writes no display matrix (no `Projection`).
    static func parse(
        _ arguments: ParsedArguments, output: String, of command: any Command.Type
    ) throws(HFRError) -> Int? {
        guard let text = arguments.value("rotate") else { return nil }
        guard let degrees = Int(text), DisplayRotation.allowed.contains(degrees) else {
            throw .usage("--rotate must be 0, 90, 180 or 270 (degrees clockwise), not '\(text)'", of: command)
        }
        let format = AtomicOutput.containerFormat(for: output)
        if degrees != 0, format == "matroska" || format == "webm" {
            throw .usage(
                "--rotate \(degrees) needs an .mp4 or .mov OUTPUT: FFmpeg 5.1 writes no rotation into \(format)",
                of: command)
        }
        return degrees
    }
}
