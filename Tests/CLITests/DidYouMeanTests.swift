import HFRTestSupport
import Testing

/// A mistyped command or option: the error, git's "Did you mean", the usage lines, exit 64.
@Suite struct DidYouMeanTests {
    @Test(arguments: [
        (
            ["recrod", "out.mp4"], "unknown command 'recrod'", "Did you mean 'record'?",
            "Usage: hfr <command> [options]"
        ),
        (
            ["export", "in.mp4", "out.mp4", "--confrom", "30"], "unknown option '--confrom'",
            "Did you mean '--conform'?", "Usage: hfr export INPUT OUTPUT "
        ),
        (["--verison"], "unknown option '--verison'", "Did you mean '--version'?", "Usage: hfr <command> [options]"),
    ])
    func suggestsTheClosestAndExits64(words: [String], error: String, hint: String, usage: String) throws {
        let dir = try TemporaryDirectory()
        let r = try Tool.run(Tool.hfrPath, words.map { $0.hasSuffix(".mp4") ? dir.path($0) : $0 })
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(r.stderr)")
        guard lines.count == 4 else { return }
        #expect(lines[0] == "Error: " + error)
        #expect(lines[1] == hint)
        #expect(lines[2].hasPrefix(usage))
        #expect(lines[3].hasPrefix("See 'hfr "))
        #expect(try dir.contents().isEmpty)
    }

    @Test func farFromEverythingGetsNoSuggestion() throws {
        let r = try Tool.hfr(["probe", "in.mp4", "--bogus"])
        #expect(r.status == 64)
        #expect(!r.stderr.contains("Did you mean"))
    }
}
