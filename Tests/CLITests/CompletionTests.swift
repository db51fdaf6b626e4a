import Foundation
import HFRTestSupport
import Testing

/// The installed completion scripts, driven the way the shells drive them: bash's completion
/// function with COMP_WORDS/COMP_CWORD set, fish's `complete -C`; zsh's syntax checked.
@Suite(.serialized) struct CompletionTests {
    /// A bash script sourcing the installed completion and printing the replies to each line.
    static func bashScript(_ lines: [[String]], prefix: String) -> String {
        let calls = lines.map { words in "c " + words.map { "'\($0)'" }.joined(separator: " ") }
        return """
            source '\(prefix)/share/bash-completion/completions/hfr' || exit 90
            complete -p hfr | grep -qx 'complete -F _hfr hfr' || exit 91
            c() {
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                COMPREPLY=(); _hfr; echo "${COMPREPLY[*]}"
            }
            \(calls.joined(separator: "\n"))

            """
    }

    /// The replies of the installed bash completion to each line, as sets.
    static func bash(_ lines: [[String]], prefix: String) throws -> [Set<String>] {
        let r = try Tool.run("bash", ["--norc", "-c", bashScript(lines, prefix: prefix)])
        guard r.status == 0 else { throw InstallFailure("bash exited \(r.status): \(r.stderr)") }
        let replies = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return replies.map { Set($0.split(separator: " ").map(String.init)) }
    }

    @Test func bashCompletesCommandsOptionsAndValues() throws {
        let install = try Installation.shared.get()
        let replies = try Self.bash(
            [
                ["hfr", "ex"], ["hfr", "export", "--au"], ["hfr", "export", "--audio", ""],
                ["hfr", "export", "--audio", "=", "ti"], ["hfr", "export", "--reencode", ""],
                ["hfr", "record", "--late-frames", ""], ["hfr", "completion", ""], ["hfr", "export", "--"],
                ["hfr", ""], ["hfr", "-v", "pro"], ["hfr", "export", "--conform", ""],
            ], prefix: install.prefix)
        #expect(replies.count == 11)
        guard replies.count == 11 else { return }
        #expect(replies[0] == ["export"])
        #expect(replies[1] == ["--audio"])
        #expect(replies[2] == ["spectral", "time-domain", "varispeed", "mute"])
        #expect(replies[3] == ["time-domain"])  // --audio=ti
        #expect(replies[4] == ["auto", "never", "always"])
        #expect(replies[5] == ["drop", "queue"])
        #expect(replies[6] == ["bash", "zsh", "fish"])
        #expect(replies[7] == (try InstallTests.options(install.hfr, "export")))
        #expect(replies[8] == Set(try InstallTests.commands(install.hfr) + ["help"]))
        #expect(replies[9] == ["probe"])
        #expect(replies[10].isEmpty)  // a frame rate: nothing to offer
    }

    @Test func bashCompletesFilesForInputs() throws {
        let install = try Installation.shared.get()
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path("clip-120fps.mp4"), contents: Data()))
        let replies = try Self.bash(
            [["hfr", "export", dir.path("clip-")], ["hfr", "probe", "--timestamps", dir.path("cl")]],
            prefix: install.prefix)
        #expect(replies == [[dir.path("clip-120fps.mp4")], [dir.path("clip-120fps.mp4")]])
    }

    /// In a private mount namespace with a /dev holding two capture nodes.
    @Test func bashCompletesVideoDevices() throws {
        let install = try Installation.shared.get()
        let dir = try TemporaryDirectory()
        let lines = [["hfr", "record", "--device", ""], ["hfr", "formats", "--device", "/dev/video2"]]
        try Self.bashScript(lines, prefix: install.prefix).write(
            toFile: dir.path("complete.bash"), atomically: true, encoding: .utf8)
        let r = try Installation.inPrivateMounts(
            """
            mount -t tmpfs none /dev || exit 92
            ln -s /proc/self/fd /dev/fd && : >/dev/null && touch /dev/video0 /dev/video2 /dev/vhci
            exec bash --norc "$1"
            """, [dir.path("complete.bash")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "/dev/video0 /dev/video2\n/dev/video2\n")
    }

    /// record --audio offers PulseAudio's sources: a private server with a null sink (its monitor
    /// is a source), found through PULSE_SERVER as any client finds it.
    @Test func bashCompletesPulseSources() throws {
        let install = try Installation.shared.get()
        let dir = try TemporaryDirectory()
        let server = """
            export PULSE_RUNTIME_PATH='\(dir.path("pulse"))' HOME='\(dir.path("pulse"))'
            export PULSE_SERVER=unix:$PULSE_RUNTIME_PATH/native
            mkdir -p "$PULSE_RUNTIME_PATH"
            pulseaudio --daemonize=no --exit-idle-time=-1 -n --use-pid-file=no \\
              -L "module-native-protocol-unix socket=$PULSE_RUNTIME_PATH/native auth-anonymous=1" \\
              -L "module-null-sink sink_name=hfrcomplete" </dev/null >/dev/null 2>&1 &
            server=$!
            trap 'kill $server; wait' EXIT
            for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.05; done

            """
        // `pulse:` as bash splits it at ':' (COMP_WORDBREAKS): the reply is what follows the colon.
        let lines = [["hfr", "record", "--audio", ""], ["hfr", "record", "--audio", "pulse", ":"]]
        let r = try Tool.run("bash", ["--norc", "-c", server + Self.bashScript(lines, prefix: install.prefix)])
        #expect(r.status == 0, "\(r.stderr)")
        let replies = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            Set($0.split(separator: " ").map(String.init))
        }
        #expect(replies.count == 3)
        guard replies.count == 3 else { return }
        #expect(replies[0].isSuperset(of: ["none", "pulse:hfrcomplete.monitor"]), "\(replies[0])")
        #expect(replies[1].contains("hfrcomplete.monitor") && !replies[1].contains("none"), "\(replies[1])")
    }

    /// Types LINE and a Tab into an interactive zsh (in a pseudo-terminal, zsh/zpty) whose $fpath
    /// holds the installed _hfr; returns the screen after the prompt, escape sequences removed.
    static func zsh(_ line: String, prefix: String) throws -> [String] {
        let dir = try TemporaryDirectory()
        let driver = #"""
            zmodload zsh/zpty
            zpty z 'zsh -f -i'
            zpty -w z "PS1='> '; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D; print READY"
            zpty -r -m z out '*READY*' || exit 1
            zpty -n -w z "$2"$'\t'
            sleep 1
            zpty -n -w z $'\C-u'
            zpty -w z 'exit'
            while zpty -r -t z line; do print -rn -- "$line"; done
            zpty -d z
            """#
        try driver.write(toFile: dir.path("drive.zsh"), atomically: true, encoding: .utf8)
        let r = try Tool.run(
            "zsh", ["-f", dir.path("drive.zsh"), prefix + "/share/zsh/site-functions", line])
        guard r.status == 0 else { throw InstallFailure("zsh exited \(r.status): \(r.stderr)") }
        let screen = r.stdout.replacingOccurrences(
            of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: " ", options: .regularExpression)
        let afterPrompt = screen.components(separatedBy: "READY").last ?? ""
        return afterPrompt.split { $0.isWhitespace || $0.isASCII && $0.asciiValue! < 32 }.map(String.init)
    }

    @Test func zshCompletesInATerminal() throws {
        let install = try Installation.shared.get()
        let audio = try Self.zsh("hfr export --audio ", prefix: install.prefix)
        #expect(Set(audio).isSuperset(of: ["spectral", "time-domain", "varispeed", "mute"]), "\(audio)")
        let reencode = try Self.zsh("hfr export --reencode ", prefix: install.prefix)
        #expect(Set(reencode).isSuperset(of: ["auto", "never", "always"]), "\(reencode)")
        let command = try Self.zsh("hfr expo", prefix: install.prefix)
        #expect(command.contains("export"), "\(command)")
        let late = try Self.zsh("hfr record --late-frames ", prefix: install.prefix)
        #expect(Set(late).isSuperset(of: ["drop", "queue"]) && !late.contains("auto"), "\(late)")
    }

    @Test func fishCompletesAndZshParses() throws {
        let install = try Installation.shared.get()
        let fish = install.prefix + "/share/fish/vendor_completions.d/hfr.fish"
        #expect(try Tool.run("fish", ["-n", fish]).status == 0)
        func complete(_ line: String) throws -> Set<String> {
            let r = try Tool.run("fish", ["-c", "source '\(fish)'; complete -C '\(line)'"])
            return Set(r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
        }
        #expect(try complete("hfr ex") == ["export"])
        #expect(try complete("hfr export --au") == ["--audio"])
        #expect(try complete("hfr export --audio ") == ["spectral", "time-domain", "varispeed", "mute"])
        #expect(try complete("hfr batch --shard ") == ["auto"])
        let zsh = install.prefix + "/share/zsh/site-functions/_hfr"
        let r = try Tool.run("zsh", ["-n", zsh])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: zsh, encoding: .utf8)
        #expect(text.hasPrefix("#compdef hfr\n"))
        #expect(text.contains("--audio=[spectral (default), time-domain, varispeed or mute.]:ALG:(spectral"))
    }
}
