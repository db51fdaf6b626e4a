import HFRMedia

/// `--rotate 0|90|180|270` (record and export): degrees clockwise a viewer turns the picture,
/// written as the MP4/MOV display matrix (`DisplayRotation`); no pixel is re-encoded for it.
enum RotateArgument {
    static func option(help: String) -> OptionSpec {
        .value("rotate", "0|90|180|270", help: help, choices: ["0", "90", "180", "270"])
    }

    /// The value of `--rotate`, nil when not given; a usage error for any other value. Matroska gets
    /// it as a `Projection` roll (`MatroskaRotationPatch`); WebM none (`Container.rotation`).
    static func parse(
        _ arguments: ParsedArguments, output: String, of command: any Command.Type
    ) throws(HFRError) -> Int? {
        guard let text = arguments.value("rotate") else { return nil }
        guard let degrees = Int(text), DisplayRotation.allowed.contains(degrees) else {
            throw .usage("--rotate must be 0, 90, 180 or 270 (degrees clockwise), not '\(text)'", of: command)
        }
        let container = Container(output: output)
        if degrees != 0, container.rotation == .none {
            let holders = Container.exportExtensions.filter { Container(output: "x." + $0).rotation != .none }
            throw .usage(
                "--rotate \(degrees) needs an \(Container.listed(holders)) OUTPUT; \(container.displayName) stores no rotation",
                of: command)
        }
        return degrees
    }
}
