/// One entry of a command's option table: drives both parsing and `--help`.
public struct OptionSpec: Sendable {
    /// What the option takes from the command line.
    public enum Kind: Sendable, Equatable {
        /// `--json`: present or not.
        case flag
        /// `--fps 120`, `--fps=120`: one value, named by `placeholder` in help.
        case value(placeholder: String)
        /// `--control a=1 --control b=2`: a value that may be given several times.
        case repeatedValue(placeholder: String)
        /// `INPUT`: a word without dashes, in order.
        case positional(placeholder: String, isOptional: Bool)
    }

    /// Long name without dashes ("json"), or the placeholder for positionals.
    public let name: String
    /// Optional one-letter alias ("j" for -j).
    public let shortName: Character?
    public let kind: Kind
    public let help: String
    /// Words shells complete for the value and the man page lists: the whole set when it is fixed
    /// (`--reencode auto|never|always`), the fixed words of an open one (`auto` of `--exposure auto|T`).
    public let choices: [String]
    /// What else completes the value: files, capture devices.
    public let completion: ValueCompletion

    /// Values a shell offers beyond `choices`.
    public enum ValueCompletion: Sendable, Equatable {
        case none
        case files
        /// V4L2 nodes, /dev/video*.
        case videoDevices
        /// ALSA capture PCMs (alsa:hw:C,D) and PulseAudio sources (pulse:NAME).
        case audioDevices
    }

    init(
        name: String, shortName: Character?, kind: Kind, help: String, choices: [String] = [],
        completion: ValueCompletion? = nil
    ) {
        self.name = name
        self.shortName = shortName
        self.kind = kind
        self.help = help
        self.choices = choices
        // Positionals and FILE values are paths unless they have a fixed set of words.
        self.completion = completion ?? Self.defaultCompletion(kind, choices)
    }

    private static func defaultCompletion(_ kind: Kind, _ choices: [String]) -> ValueCompletion {
        switch kind {
        case .positional: choices.isEmpty ? .files : .none
        case .value("FILE"), .repeatedValue("FILE"): .files
        default: .none
        }
    }

    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: short, kind: .flag, help: help)
    }

    public static func value(
        _ name: String, _ placeholder: String, short: Character? = nil, help: String, choices: [String] = [],
        completion: ValueCompletion? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, kind: .value(placeholder: placeholder), help: help, choices: choices,
            completion: completion)
    }

    public static func repeated(_ name: String, _ placeholder: String, help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: nil, kind: .repeatedValue(placeholder: placeholder), help: help)
    }

    public static func positional(
        _ placeholder: String, optional: Bool = false, help: String, choices: [String] = []
    ) -> OptionSpec {
        OptionSpec(
            name: placeholder, shortName: nil, kind: .positional(placeholder: placeholder, isOptional: optional),
            help: help, choices: choices)
    }

    /// How the option appears in the usage line: `INPUT`, `[--json]`, `[--fps N]`.
    var usageFragment: String {
        switch kind {
        case .flag: "[--\(name)]"
        case .value(let p): "[--\(name) \(p)]"
        case .repeatedValue(let p): "[--\(name) \(p)]..."
        case .positional(let p, let isOptional): isOptional ? "[\(p)]" : p
        }
    }

    /// The value's placeholder (`FPS`), nil for a flag.
    var placeholder: String? {
        switch kind {
        case .flag: nil
        case .value(let p), .repeatedValue(let p), .positional(let p, _): p
        }
    }

    /// The left column in help: `--fps N`, `-j, --jobs N`, `INPUT`.
    var helpLabel: String {
        let short = shortName.map { "-\($0), " } ?? ""
        switch kind {
        case .flag: return "\(short)--\(name)"
        case .value(let p), .repeatedValue(let p): return "\(short)--\(name) \(p)"
        case .positional(let p, _): return p
        }
    }
}
