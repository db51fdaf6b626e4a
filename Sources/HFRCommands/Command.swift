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

    /// Validates the parsed arguments; throws usage errors (exit 64).
    init(_ arguments: ParsedArguments) throws(HFRError)

    /// Does the work; throws `HFRError` with the exit code of SPEC.md.
    func run() throws(HFRError)
}

extension Command {
    public static var discussion: String { "" }

    /// `hfr probe INPUT [--json] [--frames]`
    public static var usage: String {
        (["hfr", name] + options.map(\.usageFragment)).joined(separator: " ")
    }
}
