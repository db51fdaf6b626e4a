/// A subcommand: static metadata and an option table, parsed into a value, then run.
///
/// The shape of swift-argument-parser, by hand: parse → validate (in `init`) → `run`.
public protocol Command: Sendable {
    /// The word after `hfr`, e.g. "probe".
    static var name: String { get }
    /// One line for `hfr --help`.
    static var abstract: String { get }
    /// Paragraphs for `hfr NAME --help`, after the options.
    static var discussion: String { get }
    /// Options and positionals; drives parsing, the usage line and `--help`.
    static var options: [OptionSpec] { get }
    /// Command lines shown under "Examples:" in `--help` and EXAMPLES in the man page.
    static var examples: [CommandExample] { get }
    /// Left out of `hfr --help`, the man pages and completions (tools for packaging).
    static var isHidden: Bool { get }

    /// Validates the parsed arguments; throws usage errors (exit 64).
    init(_ arguments: ParsedArguments) throws(HFRError)

    /// Does the work; throws `HFRError` with the exit code of SPEC.md.
    func run() throws(HFRError)
}

extension Command {
    public static var discussion: String { "" }
    public static var examples: [CommandExample] { [] }
    public static var isHidden: Bool { false }

    /// `hfr probe INPUT [--json] [--frames]`
    public static var usage: String {
        (["hfr", name] + options.map(\.usageFragment)).joined(separator: " ")
    }
}

/// One example for `--help` and the man page: what it does, then the command line.
public struct CommandExample: Sendable {
    public let summary: String
    /// As typed: `hfr` and its arguments, perhaps followed by a redirection (`> FILE`).
    public let commandLine: String

    public init(_ summary: String, _ commandLine: String) {
        self.summary = summary
        self.commandLine = commandLine
    }

    /// The words hfr receives after its name: split at spaces (examples need no quoting), up to
    /// the first shell operator.
    public var arguments: [String] {
        let words = commandLine.split(separator: " ").map(String.init).dropFirst()
        return Array(words.prefix { ![">", ">>", "|", "<", "&&", ";"].contains($0) })
    }
}
