/// `--help` text, generated from the same option tables the parser uses.
enum Help {
    static let globalOptions: [OptionSpec] = [
        .flag("help", short: "h", help: "Show help for hfr or for a command."),
        .flag("version", help: "Show the version."),
        .flag("verbose", short: "v", help: "Show libav's own messages (twice: debug)."),
        .flag("quiet", short: "q", help: "No progress lines (errors, notes and the final summary still print)."),
    ]

    static func main(commands: [any Command.Type]) -> String {
        let commands = commands.filter { !$0.isHidden }
        var lines = [
            "hfr \(HFR.version) — record and retime high-frame-rate video on Linux.",
            "",
            "Usage: hfr <command> [options]",
            "",
            "Commands:",
        ]
        let width = commands.map { $0.name.count }.max() ?? 0
        for c in commands { lines.append("  " + pad(c.name, width) + "  " + c.abstract) }
        lines += ["", "Options:"]
        lines += table(globalOptions)
        lines += ["", "Examples:"] + examples(workflow)
        lines += ["", "See 'hfr <command> --help' for a command's options.", ""]
        return lines.joined(separator: "\n")
    }

    static func command(_ command: any Command.Type) -> String {
        var lines = [command.abstract, "", "Usage: \(command.usage)"]
        let positionals = command.options.filter { !$0.isNamedOption }
        if !positionals.isEmpty { lines += ["", "Arguments:"] + table(positionals) }
        lines += ["", "Options:"] + table(options(of: command).filter(\.isNamedOption))
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        if !command.examples.isEmpty { lines += ["", "Examples:"] + examples(command.examples) }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// What `hfr NAME` accepts: its table, then the global options but --version (a first word only).
    static func options(of command: any Command.Type) -> [OptionSpec] {
        command.options + globalOptions.filter { $0.name != "version" }
    }

    private static func examples(_ examples: [CommandExample]) -> [String] {
        examples.flatMap { ["  # " + $0.summary, "  " + $0.commandLine] }
    }

    private static func table(_ specs: [OptionSpec]) -> [String] {
        let width = specs.map(\.helpLabel.count).max() ?? 0
        return specs.map { "  " + pad($0.helpLabel, width) + "  " + $0.help }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
