import Testing

@testable import HFRCommands

/// "Did you mean": the closest known word by Damerau–Levenshtein distance, as git suggests.
@Suite struct SpellingSuggestionTests {
    @Test(arguments: [
        ("recrod", "record", 1),  // two neighbours swapped
        ("confrom", "conform", 1),
        ("expor", "export", 1),
        ("kitten", "sitting", 3),
        ("", "abc", 3),
        ("probe", "probe", 0),
        ("ca", "abc", 3),  // optimal string alignment: no edit of a swapped pair
    ])
    func distanceCountsEditsAndSwaps(a: String, b: String, expected: Int) {
        #expect(Suggestion.distance(Array(a), Array(b)) == expected)
        #expect(Suggestion.distance(Array(b), Array(a)) == expected)
    }

    @Test(arguments: [
        ("recrod", "Did you mean 'record'?"),
        ("exprot", "Did you mean 'export'?"),
        ("prob", "Did you mean 'probe'?"),
        ("Batch", "Did you mean 'batch'?"),
        ("ex", "Did you mean 'export'?"),  // the start of one command
        ("--verison", "Did you mean '--version'?"),
        ("--hlep", "Did you mean '--help'?"),
    ])
    func unknownFirstWordSuggestsTheClosest(word: String, hint: String) {
        let error = HFR.unknown(word)
        #expect(error.exitCode == .usage)
        #expect(error.hint == hint)
        #expect(error.message == (word.hasPrefix("-") ? "unknown option '\(word)'" : "unknown command '\(word)'"))
    }

    @Test(arguments: ["frobnicate", "x", "zzzzzz", "--bogus", "manpagez"])
    func nothingCloseMeansNoHint(word: String) {
        // "manpagez" is one letter from the hidden `manpages`: hidden commands are never suggested.
        #expect(HFR.unknown(word).hint == nil)
    }

    @Test(arguments: [
        (["a.mp4", "b.mp4", "--confrom", "30"], "unknown option '--confrom'", "Did you mean '--conform'?"),
        (["a.mp4", "b.mp4", "--audo", "mute"], "unknown option '--audo'", "Did you mean '--audio'?"),
        (["a.mp4", "b.mp4", "--renecode=never"], "unknown option '--renecode'", "Did you mean '--reencode'?"),
        (["a.mp4", "b.mp4", "--au", "mute"], "unknown option '--au'", "Did you mean '--audio'?"),
        (["a.mp4", "b.mp4", "--verbsoe"], "unknown option '--verbsoe'", "Did you mean '--verbose'?"),
    ])
    func unknownOptionSuggestsTheCommandsOwn(words: [String], message: String, hint: String) {
        #expect {
            _ = try ParsedArguments(words, for: ExportCommand.self)
        } throws: { error in
            let e = error as? HFRError
            return e?.exitCode == .usage && e?.message == message && e?.hint == hint
                && e?.usageOf == ExportCommand.self
        }
    }

    @Test func equallyCloseOptionsAreAllNamed() {
        struct Sample: Command {
            static let name = "sample"
            static let abstract = "Two options one letter apart."
            static let options: [OptionSpec] = [.flag("fast", help: "F."), .flag("last", help: "L.")]
            init(_ arguments: ParsedArguments) throws(HFRError) {}
            func run() throws(HFRError) {}
        }
        #expect {
            _ = try ParsedArguments(["--mast"], for: Sample.self)
        } throws: { error in
            (error as? HFRError)?.hint == "Did you mean one of '--fast', '--last'?"
        }
    }

    @Test func theHintIsPrintedBetweenTheErrorAndTheUsage() {
        var error = HFRError.usage("unknown command 'recrod'")
        error.hint = "Did you mean 'record'?"
        #expect(
            HFR.render(error)
                == "Error: unknown command 'recrod'\nDid you mean 'record'?\nUsage: hfr <command> [options]\n"
                + "See 'hfr --help'\n")
    }
}
