import HFRMedia

/// `hfr completion bash|zsh|fish`: a completion script generated from the option tables.
public struct CompletionCommand: Command {
    public static let name = "completion"
    public static let abstract = "Print a shell completion script for bash, zsh or fish."
    public static let discussion = """
        The script is generated from the same option tables as --help: it completes the commands,
        each command's options, the values of options with a fixed set (export --audio, --reencode,
        record --late-frames, …), files for inputs and outputs, V4L2 devices (/dev/video*) for
        --device, and ALSA capture PCMs and PulseAudio sources for record --audio. scripts/install
        installs all three scripts; to try one without installing (bash):

          source <(hfr completion bash)

        Exit codes: 0 ok, 64 usage.
        """
    public static let options: [OptionSpec] = [
        .positional("SHELL", help: "bash, zsh or fish.", choices: ["bash", "zsh", "fish"])
    ]

    let shell: String

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        shell = arguments.positional("SHELL")!
        guard Self.options[0].choices.contains(shell) else {
            throw .usage("unknown shell '\(shell)': bash, zsh or fish", of: Self.self)
        }
    }

    public func run() throws(HFRError) {
        let commands = ShellCompletion.commands
        switch shell {
        case "bash": Console.output(BashCompletion.script(commands))
        case "zsh": Console.output(ZshCompletion.script(commands))
        default: Console.output(FishCompletion.script(commands))
        }
    }
}

/// What the completion scripts and man pages are generated from: the visible commands and the
/// options each accepts.
enum ShellCompletion {
    struct Entry {
        let name: String
        let abstract: String
        /// The command's table, then the global options it accepts after its name.
        let options: [OptionSpec]
    }

    static var commands: [Entry] {
        HFR.commands.filter { !$0.isHidden }.map {
            Entry(name: $0.name, abstract: $0.abstract, options: Help.options(of: $0))
        }
    }

    /// `--audio` and `-a`: what the option is typed as.
    static func spellings(_ spec: OptionSpec) -> [String] {
        ["--" + spec.name] + (spec.shortName.map { ["-\($0)"] } ?? [])
    }
}
