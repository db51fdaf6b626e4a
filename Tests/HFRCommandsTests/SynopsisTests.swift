import Foundation
import Testing

@testable import HFRCommands

/// Issue 27: one source for every synopsis. The README's and docs/spec.md's synopsis blocks, `--help`'s
/// usage line, the man pages' SYNOPSIS and the shell completions all come from the option tables; this
/// fails when a document's block differs (fix: `hfr synopses README.md docs/spec.md`).
@Suite struct SynopsisTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let visible: [any Command.Type] = HFR.commands.filter { !$0.isHidden } + HFR.subcommands

    static func document(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    @Test(arguments: ["README.md", "docs/spec.md"])
    func documentBlocksAreTheOptionTables(file: String) throws {
        let text = try Self.document(file)
        let (updated, unknown) = Synopsis.updated(text)
        #expect(unknown.isEmpty, "\(file): markers naming no command: \(unknown)")
        if updated != text {
            let pair = zip(text.split(separator: "\n"), updated.split(separator: "\n")).first { $0 != $1 }
            let first = pair.map { "'\($0.0)', the tables say '\($0.1)'" } ?? "the number of lines"
            Issue.record(
                "\(file) differs from the option tables (run: hfr synopses README.md docs/spec.md); first: \(first)")
        }
    }

    @Test func everyCommandHasItsSynopsisInTheDocuments() throws {
        let readme = Set(Synopsis.markers(in: try Self.document("README.md")))
        let names = Self.visible.map { $0.name }
        let missing = names.filter { !readme.contains($0) && $0 != "completion" }
        #expect(missing.isEmpty, "README.md has no synopsis of \(missing)")
        #expect(Synopsis.markers(in: try Self.document("docs/spec.md")) == ["all"])
        let all = Synopsis.all
        for name in names { #expect(all.contains("hfr \(name) "), "\(name)") }
    }

    /// The wrapped synopsis is `--help`'s usage line, word for word.
    @Test func wrappedSynopsisIsTheHelpUsageLine() {
        for command in HFR.commands + HFR.subcommands {
            let words = Synopsis.text(of: command).split(whereSeparator: \.isWhitespace)
            #expect(words == command.usage.split(separator: " "), "\(command.name)")
            #expect(Help.command(command).contains("Usage: \(command.usage)\n"), "\(command.name)")
            #expect(Synopsis.text(of: command).split(separator: "\n").allSatisfy { $0.count <= Synopsis.width })
        }
    }

    /// The man page's SYNOPSIS, and each shell's completion made for that command alone, name every
    /// option of the command's table.
    @Test func manPagesAndCompletionsNameEveryOption() {
        let commands = HFR.commands.filter { !$0.isHidden }
        for command in commands + HFR.subcommands {
            let page = ManPage.command(command, all: commands)
            for spec in command.options {
                let fragment = ManPage.escape(spec.usageFragment).replacingOccurrences(of: " ", with: "\\ ")
                #expect(page.contains(fragment), "\(command.name): \(spec.usageFragment) not in its man page")
            }
        }
        for entry in ShellCompletion.commands {
            let scripts = [
                ("bash", BashCompletion.script([entry])), ("zsh", ZshCompletion.script([entry])),
                ("fish", FishCompletion.script([entry])),
            ]
            // Whole words (`--json` is not found in `--json-report`); fish spells a long option `-l NAME`.
            let words = scripts.map { (shell, script) in
                (shell, Set(script.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init)))
            }
            for spec in entry.options {
                if case .positional = spec.kind { continue }
                for (shell, found) in words {
                    let spelled = shell == "fish" ? spec.name : "--" + spec.name
                    #expect(found.contains(spelled), "\(shell): \(entry.name) --\(spec.name)")
                }
            }
        }
    }
}
