import Testing

@testable import HFRCommands

/// The hand-written CLI frame: one option table drives parsing, usage and help.
@Suite struct ParsedArgumentsTests {
    struct Sample: Command {
        static let name = "sample"
        static let abstract = "A command for tests."
        static let options: [OptionSpec] = [
            .positional("INPUT", help: "The input."),
            .positional("OUTPUT", optional: true, help: "The output."),
            .flag("json", help: "JSON."),
            .value("jobs", "N", short: "j", help: "Workers."),
        ]
        init(_ arguments: ParsedArguments) throws(HFRError) {}
        func run() throws(HFRError) {}
    }

    func parse(_ words: [String]) throws(HFRError) -> ParsedArguments {
        try ParsedArguments(words, for: Sample.self)
    }

    @Test func readsPositionalsFlagsAndValuesInAnyOrder() throws {
        let p = try parse(["--jobs", "4", "in.mp4", "--json", "out.mp4"])
        #expect(p.positional("INPUT") == "in.mp4")
        #expect(p.positional("OUTPUT") == "out.mp4")
        #expect(p.flag("json"))
        #expect(try p.value("jobs", as: Int.self) == 4)
    }

    @Test func acceptsEqualsFormShortNamesAndDoubleDash() throws {
        let p = try parse(["--jobs=3", "--", "-weird-name.mp4"])
        #expect(try p.value("jobs", as: Int.self) == 3)
        #expect(p.positional("INPUT") == "-weird-name.mp4")
        #expect(try parse(["-j", "2", "x"]).value("jobs", as: Int.self) == 2)
    }

    @Test(arguments: [
        (["in", "--bogus"], "unknown option '--bogus'"),
        ([], "missing INPUT"),
        (["a", "b", "c"], "unexpected argument 'c'"),
        (["in", "--jobs"], "option '--jobs' needs a value (N)"),
        (["in", "--json=yes"], "option '--json' takes no value"),
        (["in", "-x"], "unknown option '-x'"),
        (["in", "-j", "1", "-j", "2"], "option '--jobs' given more than once"),
    ])
    func rejectsMistakesAsUsageErrors(words: [String], message: String) {
        #expect {
            _ = try parse(words)
        } throws: { error in
            let e = error as? HFRError
            return e?.exitCode == .usage && e?.message == message && e?.usageOf == Sample.self
        }
    }

    @Test func typedValueThatDoesNotConvertNamesTheOption() throws {
        let p = try parse(["in", "--jobs", "many"])
        #expect {
            _ = try p.value("jobs", as: Int.self)
        } throws: { error in
            (error as? HFRError)?.message == "invalid value 'many' for '--jobs': expected an integer"
        }
    }

    @Test func usageAndHelpComeFromTheOptionTable() {
        #expect(Sample.usage == "hfr sample INPUT [OUTPUT] [--json] [--jobs N]")
        let help = Help.command(Sample.self)
        for spec in Sample.options { #expect(help.contains(spec.helpLabel) && help.contains(spec.help)) }
        #expect(help.contains("-j, --jobs N"))
        #expect(help.contains("--verbose"))
    }
}
