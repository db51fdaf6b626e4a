import Testing

@testable import HFRCommands

/// The examples `--help` and the man pages show, and the choices completions offer, are command
/// lines hfr accepts.
@Suite struct CommandExamplesTests {
    static let visible = HFR.commands.filter { !$0.isHidden } + HFR.subcommands

    /// The command an example runs (`hfr batch merge …` runs the subcommand) and its arguments.
    static func resolve(_ words: [String]) -> (command: (any Command.Type)?, arguments: [String]) {
        if let sub = HFR.subcommand(words) { return (sub, Array(words.dropFirst(2))) }
        return (HFR.commands.first { $0.name == words.first }, Array(words.dropFirst()))
    }

    @Test func everyVisibleCommandHasExamples() {
        for command in Self.visible {
            #expect(command.examples.count >= 2, "\(command.name) has \(command.examples.count) examples")
        }
    }

    /// Parsed and validated by the command's own `init` (which reads no file). An `init` that needs
    /// the machine (record without --device looks for a camera) may fail, but not as a usage error.
    @Test func everyExampleParses() throws {
        for command in Self.visible {
            for example in command.examples {
                #expect(example.commandLine.hasPrefix("hfr \(command.name)"), "\(example.commandLine)")
                let (runs, arguments) = Self.resolve(example.arguments)
                let target = try #require(runs, "\(example.commandLine)")
                do {
                    _ = try target.init(ParsedArguments(arguments, for: target))
                } catch {
                    #expect(error.exitCode != .usage, "\(example.commandLine): \(error.message)")
                }
            }
        }
    }

    @Test func theWorkflowInMainHelpParses() throws {
        #expect(Help.main(commands: HFR.commands).contains("\nExamples:\n  # Record ten seconds"))
        for example in Help.workflow {
            let name = try #require(example.arguments.first)
            let command = try #require(HFR.commands.first { $0.name == name })
            do {
                _ = try command.init(ParsedArguments(Array(example.arguments.dropFirst()), for: command))
            } catch {
                #expect(error.exitCode != .usage, "\(example.commandLine): \(error.message)")
            }
        }
    }

    @Test func redirectionsAreNotArguments() {
        let example = CommandExample("Bash", "hfr completion bash > ~/.bash_completion.d/hfr")
        #expect(example.arguments == ["completion", "bash"])
    }

    @Test func helpShowsTheExamples() {
        let help = Help.command(ExportCommand.self)
        let examples = help.components(separatedBy: "\nExamples:\n")
        #expect(examples.count == 2)
        for example in ExportCommand.examples {
            #expect(examples.last!.contains("  # \(example.summary)\n  \(example.commandLine)\n"))
        }
    }

    /// Command lines a choice is tried in: something valid around the option.
    static let contexts: [String: [[String]]] = [
        "record": [
            [], ["--source", "test"], ["--device", "/dev/video9"], ["--source", "test", "--preview", "8080"],
        ],
        // A --codec the output's container cannot hold is refused as it is parsed (Container):
        // ProRes goes into MOV, FFV1 into MKV.
        "export": [
            ["in.mp4", "out.mp4", "--fps", "30"], ["in.mp4", "out.mp4"], ["in.mp4", "out.mov", "--fps", "30"],
            ["in.mp4", "out.mkv", "--fps", "30"],
        ],
        "batch": [["jobs.json"]],
        "completion": [[]],
        "preview": [[], ["--source", "test"], ["--device", "/dev/video9"]],
    ]

    @Test func everyChoiceIsAccepted() throws {
        for command in Self.visible {
            for spec in command.options where !spec.choices.isEmpty {
                let contexts = try #require(Self.contexts[command.name], "no context for \(command.name)")
                for choice in spec.choices {
                    let words = spec.isNamedOption ? ["--\(spec.name)", choice] : [choice]
                    let accepted = contexts.contains { context in
                        (try? command.init(ParsedArguments(context + words, for: command))) != nil
                    }
                    #expect(accepted, "hfr \(command.name) --\(spec.name) \(choice) is refused")
                }
            }
        }
    }
}
