import Foundation
import HFRTestSupport
import Testing

/// `scripts/install` as a user runs it: a static binary that needs only Debian's libraries (it runs
/// with the Swift toolchain hidden), man pages and completions generated from the option tables.
/// Needs root (a private mount namespace hides the toolchain); CI runs as root.
@Suite(.serialized) struct InstallTests {
    /// `hfr --help`'s command names, and `hfr NAME --help`'s long options.
    static func commands(_ hfr: String) throws -> [String] {
        let help = try Tool.run(hfr, ["--help"]).stdout
        let section = help.components(separatedBy: "Commands:\n")[1].components(separatedBy: "\n\n")[0]
        return section.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    }

    static func options(_ hfr: String, _ command: String) throws -> Set<String> {
        let help = try Tool.run(hfr, [command, "--help"]).stdout
        let section = help.components(separatedBy: "\nOptions:\n")[1].components(separatedBy: "\n\n")[0]
        return Set(
            section.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init)
            })
    }

    @Test func installsTheBinaryManPagesAndCompletions() throws {
        let install = try Installation.shared.get()
        let files = FileManager.default
        #expect(files.isExecutableFile(atPath: install.hfr))
        let commands = try Self.commands(install.hfr)
        #expect(commands.contains("export") && commands.contains("completion"))
        let pages = try files.contentsOfDirectory(atPath: install.prefix + "/share/man/man1").sorted()
        // `hfr batch merge`, `status`, `failed` and `matrix` have pages of their own, hfr-batch-merge.1….
        let batchPages = ["merge", "status", "failed", "matrix"].map { "hfr-batch-\($0).1" }
        #expect(pages == (["hfr.1"] + batchPages + commands.map { "hfr-\($0).1" }).sorted())
        for path in [
            "share/bash-completion/completions/hfr", "share/zsh/site-functions/_hfr",
            "share/fish/vendor_completions.d/hfr.fish",
        ] {
            #expect((try? files.attributesOfItem(atPath: install.prefix + "/" + path)[.size] as? Int) ?? 0 > 1000)
        }
        #expect(install.log.contains("scripts/install: built "))
    }

    /// Every library ldd lists is owned by a Debian package; none is the toolchain's.
    @Test func lddListsOnlyDebianLibraries() throws {
        let install = try Installation.shared.get()
        let toolchain = try Installation.toolchainRoot()
        let ldd = try Tool.run("ldd", [install.hfr])
        #expect(ldd.status == 0)
        #expect(!ldd.stdout.contains("not found") && !ldd.stdout.contains("libswift"), "\(ldd.stdout)")
        let paths = try Installation.ldd(install.hfr)
        #expect(paths.contains { $0.contains("libavformat.so") } && paths.contains { $0.contains("libc.so") })
        let owners = try Installation.owners(paths)
        for path in paths {
            #expect(!path.hasPrefix(toolchain + "/"), "\(path)")
            #expect(owners[path] != nil, "\(path) belongs to no Debian package")
        }
        // The debug build next to the tests is the control: it does link the toolchain's runtime.
        let debug = try Tool.run("ldd", [Tool.builtHfrPath]).stdout
        #expect(debug.contains(toolchain + "/") && debug.contains("libswiftCore.so"), "\(debug)")
        // hfr's C++ parts, which it loads only when it uses them (interpolation on OpenCV, the
        // time-domain stretch on SoundTouch): not linked, installed in lib/hfr, needing only Debian's
        // libraries (no Swift runtime: they hold no Swift).
        for (library, needs) in [
            ("libhfr-opticalflow.so", "libopencv_video.so"), ("libhfr-soundtouch.so", "libSoundTouch"),
        ] {
            let own = try Installation.ldd(install.prefix + "/lib/hfr/" + library)
            #expect(!paths.contains { $0.contains(needs) }, "hfr links \(needs): \(paths)")
            #expect(own.contains { $0.contains(needs) }, "\(library): \(own)")
            #expect(!own.contains { $0.contains("libswift") }, "\(library): \(own)")
            let owners = try Installation.owners(own)
            for path in own {
                #expect(!path.hasPrefix(toolchain + "/"), "\(path)")
                #expect(owners[path] != nil, "\(path) belongs to no Debian package")
            }
        }
    }

    /// With an empty directory mounted over the toolchain: record (libavdevice and libavfilter,
    /// dlopened), probe (which loads neither, nor OpenCV), export with WSOLA audio (libavfilter and
    /// lib/hfr/libhfr-soundtouch.so), and an export interpolating by optical flow
    /// (lib/hfr/libhfr-opticalflow.so and OpenCV); every object loaded is Debian's or hfr's.
    @Test func runsWithTheToolchainHidden() throws {
        let install = try Installation.shared.get()
        let toolchain = try Installation.toolchainRoot()
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("empty"), withIntermediateDirectories: true)
        let script = """
            mount --bind "$1/empty" "$2" || exit 90
            [ -z "$(ls -A "$2")" ] || exit 91
            "$4" --version >"$1/control.out" 2>"$1/control.err"; echo $? >"$1/control.status"
            export LD_DEBUG=libs LD_DEBUG_OUTPUT="$1/ld"
            "$3" --version >"$1/version.out" || exit 92
            "$3" record "$1/rec.mp4" --source test --fps 120 --frames 120 --late-frames queue 2>"$1/record.err" || exit 93
            LD_DEBUG_OUTPUT="$1/probe-ld" "$3" probe "$1/rec.mp4" >"$1/probe.out" || exit 94
            "$3" export "$1/rec.mp4" "$1/slow.mp4" --conform 30 --audio time-domain 2>"$1/export.err" || exit 95
            "$3" export "$1/rec.mp4" "$1/flow.mp4" --range 0-0.25 --speed 0.5 --fps 120 --interpolate flow --audio mute \
              2>"$1/flow.err" || exit 96
            """
        let r = try Installation.inPrivateMounts(script, [dir.url.path, toolchain, install.hfr, Tool.builtHfrPath])
        #expect(r.status == 0, "step \(r.status): \(r.stderr) \(try? InstallTests.text(dir.path("export.err")))")
        // The hiding works: the toolchain-linked debug build cannot start there.
        #expect(try InstallTests.text(dir.path("control.status")).hasPrefix("127"))
        #expect(
            try InstallTests.text(dir.path("control.err")).contains("error while loading shared libraries: libswift"))
        #expect(try InstallTests.text(dir.path("version.out")).hasPrefix("hfr "))
        #expect(try InstallTests.text(dir.path("probe.out")).contains("120"))
        let out = dir.path("slow.mp4")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 120)
        #expect(try MediaChecks.entry(out, stream: "v:0", "r_frame_rate") == "30/1")
        #expect(abs(try MediaChecks.duration(out, stream: "a:0") - 4) < 0.05)

        let flow = dir.path("flow.mp4")
        #expect(try FFprobe.count(flow, stream: "v:0", decoding: true) == 60)
        #expect(try InstallTests.text(dir.path("flow.err")).contains("made between them (flow)"))

        let loaded = try Self.loadedObjects(in: dir)
        for name in [
            "libavdevice.so", "libavfilter.so", "libavformat.so", "libopencv_video.so", "libSoundTouch.so",
        ] {
            #expect(loaded.contains { $0.contains(name) }, "\(name) not among \(loaded)")
        }
        for own in ["libhfr-opticalflow.so", "libhfr-soundtouch.so"] {
            #expect(loaded.contains { $0.hasSuffix("/lib/hfr/" + own) }, "\(own) not among \(loaded)")
        }
        let owners = try Installation.owners(Array(loaded))
        let ownDirectory = install.prefix + "/lib/hfr/"
        for path in loaded where !URL(fileURLWithPath: path).standardized.path.hasPrefix(ownDirectory) {
            #expect(!path.hasPrefix(toolchain + "/"), "\(path)")
            #expect(owners[path] != nil, "\(path) belongs to no Debian package")
        }
        // Probing loads no library it does not use.
        let probeLoaded = try Self.loadedObjects(in: dir, prefix: "probe-ld.")
        #expect(probeLoaded.contains { $0.contains("libavformat.so") }, "\(probeLoaded)")
        for name in ["opencv", "libavfilter", "libavdevice", "libhfr-", "SoundTouch", "rubberband", "openh264"] {
            #expect(!probeLoaded.contains { $0.contains(name) }, "probe loaded \(name): \(probeLoaded)")
        }
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Objects the dynamic loader initialised (LD_DEBUG=libs: "calling init: PATH"), from ldd's
    /// list and from dlopen.
    static func loadedObjects(in dir: TemporaryDirectory, prefix: String = "ld.") throws -> Set<String> {
        var paths: Set<String> = []
        for file in try dir.contents() where file.hasPrefix(prefix) {
            let text = try InstallTests.text(dir.path(file))
            for line in text.split(separator: "\n") {
                guard let range = line.range(of: "calling init: ") else { continue }
                paths.insert(String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces))
            }
        }
        return paths
    }

    @Test func manPagesRenderEveryOptionAndExample() throws {
        let install = try Installation.shared.get()
        for command in try Self.commands(install.hfr) {
            let page = install.prefix + "/share/man/man1/hfr-\(command).1"
            let r = try Tool.run("env", ["MANWIDTH=200", "man", "-l", page])
            #expect(r.status == 0, "\(page): \(r.stderr)")
            let text = r.stdout
            #expect(text.contains("NAME") && text.contains("hfr-\(command) - "))
            for option in try Self.options(install.hfr, command) {
                #expect(text.contains(option), "man hfr-\(command) lacks \(option)")
            }
            let help = try Tool.run(install.hfr, [command, "--help"]).stdout
            let examples = help.components(separatedBy: "\nExamples:\n").last!.split(separator: "\n")
            #expect(!examples.isEmpty)
            for line in examples where line.hasPrefix("  hfr ") {
                #expect(text.contains(line.dropFirst(2)), "man hfr-\(command) lacks the example \(line)")
            }
        }
        // hfr(1): every command, and the workflow `hfr --help` shows.
        let main = try Tool.run("env", ["MANWIDTH=200", "man", "-l", install.prefix + "/share/man/man1/hfr.1"]).stdout
        for command in try Self.commands(install.hfr) { #expect(main.contains("hfr-\(command)(1)")) }
        let workflow = try Tool.run(install.hfr, ["--help"]).stdout.split(separator: "\n").filter {
            $0.hasPrefix("  hfr ")
        }
        #expect(workflow.count >= 3)
        for line in workflow { #expect(main.contains(line.dropFirst(2)), "hfr(1) lacks \(line)") }
        // Found by name where it is installed, as `man hfr-export` finds it under /usr/local.
        let byName = try Tool.run("env", ["MANWIDTH=200", "man", "-M", install.prefix + "/share/man", "hfr-export"])
        #expect(byName.status == 0 && byName.stdout.contains("--reencode"))
    }
}
