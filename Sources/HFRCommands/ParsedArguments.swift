/// A command line matched against an option table; typed accessors for the command's `init`.
public struct ParsedArguments: Sendable {
    let command: any Command.Type
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var repeatedValues: [String: [String]] = [:]
    var positionals: [String: String] = [:]
    var repeatedPositionals: [String: [String]] = [:]

    /// Matches `arguments` (after the subcommand name) against `command.options`.
    public init(_ arguments: [String], for command: any Command.Type) throws(HFRError) {
        self.command = command
        let table = command.options
        let positionalSpecs = table.filter { if case .positional = $0.kind { true } else { false } }
        var nextPositional = 0
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !onlyPositionals, argument == "--" {
                onlyPositionals = true
                continue
            }
            if !onlyPositionals, argument.hasPrefix("-"), argument.count > 1 {
                let (spec, inlineValue) = try Self.lookUp(argument, in: table, command: command)
                try record(spec, inlineValue: inlineValue, from: arguments, at: &index)
                continue
            }
            // A last positional named `NAME...` takes every remaining word.
            if nextPositional == positionalSpecs.count, let last = positionalSpecs.last, last.name.hasSuffix("...") {
                repeatedPositionals[last.name, default: []].append(argument)
                continue
            }
            guard nextPositional < positionalSpecs.count else {
                throw .usage("unexpected argument '\(argument)'", of: command)
            }
            positionals[positionalSpecs[nextPositional].name] = argument
            if positionalSpecs[nextPositional].name.hasSuffix("...") {
                repeatedPositionals[positionalSpecs[nextPositional].name, default: []].append(argument)
            }
            nextPositional += 1
        }
        for spec in positionalSpecs[nextPositional...] {
            if case .positional(let p, false) = spec.kind {
                throw .usage("missing \(p)", of: command)
            }
        }
    }

    /// Records option `spec`: its `inlineValue` (after `=`), or else the value `arguments` has at
    /// `index` (which then moves past it).
    private mutating func record(
        _ spec: OptionSpec, inlineValue: String?, from arguments: [String], at index: inout Int
    ) throws(HFRError) {
        switch spec.kind {
        case .flag:
            if inlineValue != nil {
                throw .usage("option '--\(spec.name)' takes no value", of: command)
            }
            flags.insert(spec.name)
        case .value(let placeholder), .repeatedValue(let placeholder):
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("option '--\(spec.name)' needs a value (\(placeholder))", of: command)
            }
            if case .repeatedValue = spec.kind {
                repeatedValues[spec.name, default: []].append(value)
                return
            }
            if values[spec.name] != nil {
                throw .usage("option '--\(spec.name)' given more than once", of: command)
            }
            values[spec.name] = value
        case .positional:
            break
        }
    }

    private static func lookUp(
        _ argument: String, in table: [OptionSpec], command: any Command.Type
    ) throws(HFRError) -> (OptionSpec, String?) {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let spec = table.first(where: { $0.name == name && $0.isNamedOption }) else {
                var error = HFRError.usage("unknown option '--\(name)'", of: command)
                let known = Help.options(of: command).filter(\.isNamedOption).map { "--" + $0.name }
                error.hint = Suggestion.hint(for: "--" + name, among: known)
                throw error
            }
            return (spec, parts.count == 2 ? String(parts[1]) : nil)
        }
        let letter = argument.dropFirst().first!
        guard argument.count == 2, let spec = table.first(where: { $0.shortName == letter }) else {
            throw .usage("unknown option '\(argument)'", of: command)
        }
        return (spec, nil)
    }

    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional argument named `placeholder`, if given.
    public func positional(_ placeholder: String) -> String? { positionals[placeholder] }

    /// Every word of a positional named `NAME...` (the last one: it takes all remaining words).
    public func positionals(_ placeholder: String) -> [String] { repeatedPositionals[placeholder] ?? [] }

    /// The raw value of option `name`, if given.
    public func value(_ name: String) -> String? { values[name] }

    /// Every value of the repeatable option `name`, in order.
    public func values(_ name: String) -> [String] { repeatedValues[name] ?? [] }

    /// The value of option `name` converted to `T`; a usage error naming the option when it does not convert.
    public func value<T: ArgumentValue>(_ name: String, as type: T.Type) throws(HFRError) -> T? {
        guard let text = values[name] else { return nil }
        guard let value = T(argument: text) else {
            throw .usage("invalid value '\(text)' for '--\(name)': expected \(T.expectation)", of: command)
        }
        return value
    }
}

extension OptionSpec {
    var isNamedOption: Bool { if case .positional = kind { false } else { true } }
}

/// A type an option value converts to.
public protocol ArgumentValue {
    init?(argument: String)
    /// What a valid value looks like, for error messages ("an integer").
    static var expectation: String { get }
}

extension Int: ArgumentValue {
    public init?(argument: String) { self.init(argument) }
    public static var expectation: String { "an integer" }
}
