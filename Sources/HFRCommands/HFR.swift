import HFRMedia

/// The `hfr` program: global options, subcommand dispatch, errors to exit codes.
public enum HFR {
    public static let version = HFRVersion.number

    /// Every subcommand, in the order `hfr --help` lists them.
    public static let commands: [any Command.Type] = [
        RecordCommand.self, ExportCommand.self, BatchCommand.self, ProbeCommand.self, DevicesCommand.self,
        FormatsCommand.self, PreviewCommand.self, CompletionCommand.self, ManPagesCommand.self, SynopsesCommand.self,
    ]

    /// Commands under another (`hfr batch merge`): named "batch merge", chosen by their second word.
    public static let subcommands: [any Command.Type] = [
        BatchMergeCommand.self, BatchStatusCommand.self, BatchFailedCommand.self, BatchMatrixCommand.self,
    ]

    /// The subcommand `words` start with (`batch merge …`), if any.
    static func subcommand(_ words: [String]) -> (any Command.Type)? {
        guard words.count >= 2 else { return nil }
        return subcommands.first { $0.name == words[0] + " " + words[1] }
    }

    /// Runs the command line `arguments` (without the program name); returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let verbosity = arguments.reduce(0) { $0 + ($1 == "-v" || $1 == "--verbose" ? 1 : 0) + ($1 == "-vv" ? 2 : 0) }
        arguments.removeAll { $0 == "-v" || $0 == "--verbose" || $0 == "-vv" }
        LibavLog.configure(verbosity: verbosity)
        // -q: no progress lines (errors, notes and the final summary still come).
        if arguments.contains("-q") || arguments.contains("--quiet") {
            ProgressLine.isQuiet.store(true, ordering: .relaxed)
        }
        arguments.removeAll { $0 == "-q" || $0 == "--quiet" }

        guard let first = arguments.first else {
            Console.error(Help.main(commands: commands))
            return ExitCode.usage.rawValue
        }
        if first == "--help" || first == "-h" || first == "help" {
            if let command = subcommand(Array(arguments.dropFirst())) {
                Console.output(Help.command(command))
            } else if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                Console.output(Help.command(command))
            } else {
                Console.output(Help.main(commands: commands))
            }
            return 0
        }
        if first == "--version" {
            Console.output("hfr \(version)\n")
            return 0
        }
        guard var command = commands.first(where: { $0.name == first }) else {
            return report(unknown(first))
        }
        var rest = Array(arguments.dropFirst())
        if let sub = subcommand(arguments) {
            command = sub
            rest.removeFirst()
        }
        if rest.contains("--help") || rest.contains("-h") {
            Console.output(Help.command(command))
            return 0
        }
        do {
            let parsed = try ParsedArguments(rest, for: command)
            try command.init(parsed).run()
            return 0
        } catch {
            return report(error)
        }
    }

    /// An unknown first word: a usage error with the closest command or global option.
    static func unknown(_ word: String) -> HFRError {
        let isOption = word.hasPrefix("-")
        var error = HFRError.usage(isOption ? "unknown option '\(word)'" : "unknown command '\(word)'")
        var known = Help.globalOptions.map { "--" + $0.name }
        if !isOption { known = commands.filter { !$0.isHidden }.map { $0.name } + ["help"] }
        error.hint = Suggestion.hint(for: word, among: known)
        return error
    }

    /// Prints `error` the way SPEC.md says (one line, then "Did you mean"; usage and hint for usage errors).
    static func report(_ error: HFRError) -> Int32 {
        Console.error(render(error))
        return error.exitCode.rawValue
    }

    /// The text `report` prints for `error`.
    static func render(_ error: HFRError) -> String {
        var text = "Error: \(error.message)\n"
        if let hint = error.hint { text += hint + "\n" }
        if error.exitCode == .usage {
            if let command = error.usageOf {
                text += "Usage: \(command.usage)\nSee 'hfr \(command.name) --help'\n"
            } else {
                text += "Usage: hfr <command> [options]\nSee 'hfr --help'\n"
            }
        }
        return text
    }
}
