import Foundation
import Testing

@testable import HFRCommands

/// Every `hfr <command> --option` that hfr's help, messages, comments and docs suggest names an
/// option that command takes, and the no-camera hints suggest only their own command's options.
@Suite struct SuggestionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Options every command takes besides its table (HFR.main handles them).
    static let global: Set<String> = ["help", "verbose"]

    static func options(of command: any Command.Type) -> Set<String> {
        Set(
            command.options.compactMap { spec in
                if case .positional = spec.kind { return nil }
                return spec.name
            }
        ).union(global)
    }

    /// `(command, option)` for each `hfr COMMAND … --OPTION` in `text`: the options that follow the
    /// command name on the same line up to a quote or the end of the suggestion.
    static func suggestions(in text: String) -> [(command: String, option: String)] {
        let names = Set(HFR.commands.map { $0.name })
        var found: [(String, String)] = []
        let pattern = /hfr ([a-z]+)((?: +(?:[A-Za-z0-9_.\/<>=@:,-]+))*)/
        for match in text.matches(of: pattern) {
            let command = String(match.1)
            guard names.contains(command) else { continue }
            for word in match.2.split(separator: " ") where word.hasPrefix("--") {
                found.append((command, String(word.dropFirst(2).split(separator: "=")[0])))
            }
        }
        return found
    }

    static func bareOptions(in text: String) -> [String] {
        text.matches(of: /--([a-z][a-z-]*)/).map { String($0.1) }
    }

    @Test func sourcesHelpAndDocsSuggestOnlyOptionsTheCommandTakes() throws {
        var texts = HFR.commands.map { Help.command($0) }
        texts.append(Help.main(commands: HFR.commands))
        let folders = ["Sources", "docs"].map { Self.root.appendingPathComponent($0) }
        for folder in folders {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            for case let url as URL in files where ["swift", "md"].contains(url.pathExtension) {
                texts.append(try String(contentsOf: url, encoding: .utf8))
            }
        }
        var checked = 0
        for text in texts {
            for (name, option) in Self.suggestions(in: text) {
                let command = try #require(HFR.commands.first { $0.name == name })
                #expect(Self.options(of: command).contains(option), "hfr \(name) --\(option)")
                checked += 1
            }
        }
        #expect(checked >= 10, "the scan found only \(checked) suggestions: is the pattern broken?")
    }

    @Test func noCameraHintsNameOnlyTheirCommandsOptions() {
        #expect(Self.bareOptions(in: RecordCommand.noCameraHint) == ["source"])
        #expect(Self.options(of: RecordCommand.self).contains("source"))
        let formats = Self.bareOptions(in: FormatsCommand.noCameraHint)
        #expect(!formats.isEmpty && !formats.contains("source"))
        for option in formats { #expect(Self.options(of: FormatsCommand.self).contains(option), "--\(option)") }
        // The pattern would have caught the old hint.
        #expect(!Self.options(of: FormatsCommand.self).contains("source"))
    }
}
