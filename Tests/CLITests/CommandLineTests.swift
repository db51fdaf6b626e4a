import HFRTestSupport
import Testing

/// The CLI frame as users meet it: help, version, usage errors.
@Suite struct CommandLineTests {
    @Test func mainHelpListsCommandsAndGlobalOptions() throws {
        let r = try Tool.hfr(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Usage: hfr <command> [options]"))
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("  probe ") && $0.contains("Show streams, capture rate") })
        #expect(lines.contains { $0.hasPrefix("  record ") && $0.contains("Record video at a high frame rate") })
        #expect(r.stdout.contains("--verbose"))
        #expect(r.stderr.isEmpty)
    }

    @Test func probeHelpShowsUsageAndEveryOption() throws {
        for words in [["probe", "--help"], ["help", "probe"], ["probe", "-h"]] {
            let r = try Tool.hfr(words)
            #expect(r.status == 0)
            #expect(r.stdout.contains("Usage: hfr probe INPUT [--json] [--frames] [--timestamps FILE] [--input-fps R]"))
            #expect(r.stdout.contains("--json") && r.stdout.contains("--frames") && r.stdout.contains("INPUT"))
            #expect(r.stdout.contains("Exit codes"))
        }
    }

    @Test func versionPrintsTheVersion() throws {
        let r = try Tool.hfr(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("hfr 0."))
    }

    @Test(arguments: [
        (
            ["probe"],
            "Error: missing INPUT\nUsage: hfr probe INPUT [--json] [--frames] [--timestamps FILE] [--input-fps R]\nSee 'hfr probe --help'\n"
        ),
        (
            ["probe", "a.mp4", "--bogus"],
            "Error: unknown option '--bogus'\nUsage: hfr probe INPUT [--json] [--frames] [--timestamps FILE] [--input-fps R]\nSee 'hfr probe --help'\n"
        ),
        (["frobnicate"], "Error: unknown command 'frobnicate'\nUsage: hfr <command> [options]\nSee 'hfr --help'\n"),
    ])
    func usageErrorsExit64WithUsageAndHint(words: [String], expected: String) throws {
        let r = try Tool.hfr(words)
        #expect(r.status == 64)
        #expect(r.stderr == expected)
        #expect(r.stdout.isEmpty)
    }

    @Test func noArgumentsShowsHelpOnStderrAndExits64() throws {
        let r = try Tool.hfr([])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Usage: hfr <command>"))
    }

    @Test func verboseShowsLibavMessages() throws {
        let quiet = try Tool.hfr(["probe", Fixtures.path("not-media.mp4")])
        let loud = try Tool.hfr(["-v", "probe", Fixtures.path("not-media.mp4")])
        #expect(!quiet.stderr.contains("libav:"))
        #expect(loud.stderr.contains("libav:"))
        #expect(loud.status == quiet.status)
    }
}
