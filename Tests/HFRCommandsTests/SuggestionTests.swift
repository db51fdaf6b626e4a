import Foundation
import HFRMedia
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
    /// command name on the same line up to a quote or the end of the suggestion. `hfr batch merge …`
    /// is the subcommand's (`batch merge`).
    static func suggestions(in text: String) -> [(command: String, option: String)] {
        let names = Set(HFR.commands.map { $0.name })
        let subcommands = Set(HFR.subcommands.map { $0.name })
        var found: [(String, String)] = []
        let pattern = /hfr ([a-z]+)((?: +(?:[A-Za-z0-9_.\/<>=@:,-]+))*)/
        for match in text.matches(of: pattern) {
            var command = String(match.1)
            guard names.contains(command) else { continue }
            let words = match.2.split(separator: " ")
            if let next = words.first, subcommands.contains(command + " " + next) { command += " " + next }
            for word in words where word.hasPrefix("--") {
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
                let command = try #require((HFR.commands + HFR.subcommands).first { $0.name == name })
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

/// The encoder's frame-size limits, as `record` states them before capture starts.
@Suite struct EncoderLimitMessageTests {
    @Test(
        arguments: [
            (4096, 2304, nil), (3840, 2160, nil), (7680, 1080, nil), (16, 16, nil),
            (4000, 4000, "is beyond H.264 level 5.2: 62500 macroblocks of 16x16, at most 36864"),
            (4352, 2176, "36992 macroblocks"), (641, 480, "has an odd side"),
            (8192, 1088, "is outside 16x16 to 7680x4320"),
            (14, 14, "is outside"),
        ] as [(Int, Int, String?)])
    func sizesTheEncoderTakes(width: Int, height: Int, problem: String?) {
        let found = H264Limits.problem(width: width, height: height)
        if let problem {
            #expect(found?.contains(problem) == true, "\(width)x\(height): \(found ?? "accepted")")
        } else {
            #expect(found == nil, "\(width)x\(height): \(found ?? "")")
        }
    }

    @Test func aCameraModeTheEncoderCannotTakeIsAUsageErrorNamingTheDevice() {
        #expect(throws: Never.self) { try RecordCommand.encodable(1920, 1080, device: "/dev/video0") }
        do {
            try RecordCommand.encodable(4352, 2176, device: "/dev/video0")
            Issue.record("accepted")
        } catch {
            #expect(error.exitCode == .usage)
            #expect(error.message.hasPrefix("/dev/video0: the camera's mode 4352x2176 is beyond H.264 level 5.2"))
            #expect(error.message.contains("'hfr formats --device /dev/video0'"))
        }
    }
}
