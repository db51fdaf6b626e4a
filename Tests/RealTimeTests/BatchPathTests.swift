import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Issue 41, items 1 and 2: nothing a batch writes — an output, its resume record, a report — may
/// be a file the batch reads (an input, the manifest) or another file it writes, under any name
/// (the same path, `./`, `..`, a symlink, a hard link); and no path may carry a control byte (a
/// NUL cut `out/a\0b.mp4` to `out/a`). Each is refused with exit 64 before any job runs, leaving
/// every file as it was.
@Suite struct BatchPathTests {
    static let manifest = """
        { "schema": "hfr.batch/1",
          "jobs": [
            { "input": "rec/in.mp4", "output": "out/{stem}-c.mp4", "conform": 30 },
            { "input": "rec/b.mp4", "output": "out/b-c.mp4", "fps": 60 } ] }
        """

    /// A workspace with `rec/in.mp4`, `rec/b.mp4` (fixture copies) and `man.json`.
    static func workspace() throws -> (BatchWorkspace, manifest: String) {
        let w = try BatchWorkspace()
        try FileManager.default.createDirectory(atPath: w.dir.path("rec"), withIntermediateDirectories: true)
        for name in ["in.mp4", "b.mp4"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.path("layered-120fps.mp4"), toPath: w.dir.path("rec/\(name)"))
        }
        return (w, try w.manifest(manifest, name: "man.json"))
    }

    /// The three reports of the issue that replaced an input, the manifest and an export: refused,
    /// in a run and in a dry run, with every file as it was and nothing written.
    @Test(arguments: [
        ("--report", "rec/in.mp4", "rec/in.mp4 is an input of jobs[0]; inputs are never modified"),
        ("--json-report", "man.json", "man.json is the manifest; the manifest is never modified"),
        ("--report", "out/in-c.mp4", "out/in-c.mp4 is also written by jobs[0] (line 3)"),
    ])
    func aReportOverAFileTheBatchReadsOrWritesIsRefused(option: String, path: String, message: String) throws {
        let (w, manifest) = try Self.workspace()
        let before = try Snapshot(w.dir.url.path)
        for dryRun in [true, false] {
            let r = try w.batch([manifest, option, w.dir.path(path)] + (dryRun ? ["--dry-run"] : []))
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("Error: \(option) \(w.dir.path(""))"), "\(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(r.stdout.isEmpty, "\(r.stdout)")
            #expect(try Snapshot(w.dir.url.path) == before, "dry run: \(dryRun)")
        }
    }

    /// `"out/a\u0000b.mp4"` passed the dry run and left `out/a` behind; a control byte in an
    /// input or a report path is refused the same way.
    @Test(arguments: [
        (#"out/a\u0000b.mp4"#, "out", "3:40: jobs[0].output", "U+0000"),
        (#"out/a\nb.mp4"#, "out", "3:40: jobs[0].output", "U+000A"),
        (#"out/a-c.mp4"#, "in", "3:16: jobs[0].input", "U+001B"),
    ])
    func aControlByteInAManifestPathIsRefused(output: String, field: String, location: String, scalar: String) throws {
        let (w, _) = try Self.workspace()
        let input = field == "in" ? #"rec/in\u001b.mp4"# : "rec/in.mp4"
        let manifest = try w.manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [
                { "input": "\(input)", "output": "\(output)", "conform": 30 } ] }
            """, name: "man.json")
        let before = try Snapshot(w.dir.url.path)
        for dryRun in [true, false] {
            let r = try w.batch([manifest] + (dryRun ? ["--dry-run"] : []))
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("Error: \(manifest):\(location): "), "\(r.stderr)")
            #expect(r.stderr.contains("control character \(scalar)"), "\(r.stderr)")
            #expect(!r.stderr.contains("\u{0}") && !r.stderr.contains("\u{1B}"), "\(r.stderr)")
            #expect(try Snapshot(w.dir.url.path) == before, "dry run: \(dryRun)")
        }
        // A report path with a control byte (a newline from a shell variable).
        let (v, good) = try Self.workspace()
        let r = try v.batch([good, "--report", v.dir.path("junit\n.xml"), "--dry-run"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: --report "), "\(r.stderr)")
        #expect(r.stderr.contains("control character U+000A"), "\(r.stderr)")
    }

    /// `hfr batch merge`: its reports may be none of the reports it reads (by any name) nor one file.
    @Test func mergedReportsAreNotWrittenOverTheReportsRead() throws {
        let w = try BatchWorkspace()
        #expect(FileManager.default.createFile(atPath: w.dir.path("in/a.mp4"), contents: Data("not media".utf8)))
        let manifest = try w.manifest(
            #"{ "schema": "hfr.batch/1", "jobs": [ { "input": "in/a.mp4", "output": "out/a.mp4", "conform": 30 } ] }"#)
        let shard = w.dir.path("shard.json")
        #expect(try w.batch([manifest, "--json-report", shard]).status == 1)
        try FileManager.default.createSymbolicLink(atPath: w.dir.path("link.json"), withDestinationPath: "shard.json")
        let before = try Snapshot(w.dir.url.path)
        for (arguments, message) in [
            (["--json-report", shard], "--json-report \(shard) is a report being merged"),
            (["--report", w.dir.path("link.json")], "is the same file as \(shard), a report being merged"),
            (["--report", w.dir.path("m.xml"), "--json-report", w.dir.url.path + "/./m.xml"], "is also the --report"),
        ] {
            let r = try Tool.hfr(["batch", "merge", shard] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("Error: ") && r.stderr.contains(message), "\(r.stderr)")
            #expect(try Snapshot(w.dir.url.path) == before, "\(arguments)")
        }
    }

    /// The property: random manifests (seeded) in which one written path — an output, a resume
    /// record, a report — aliases an input, the manifest or another written path, spelled the same,
    /// with `./`, with `..`, through a symlinked directory, as a symlink or as a hard link. Every
    /// one is refused with exit 64 before any job runs, in a dry run and in a run, and no file of
    /// the workspace changes.
    @Test func everyAliasOfAReadOrWrittenPathIsRefused() throws {
        var rng = SplitMix64(seed: 41)
        var cases: [String] = []
        for index in 0..<40 {
            let alias = AliasCase.random(&rng)
            let dryRun = index % 2 == 0
            let w = try AliasCase.workspace(&rng)
            let arguments = try alias.arguments(in: w)
            let before = try Snapshot(w.dir.url.path)
            let r = try w.batch(arguments + (dryRun ? ["--dry-run"] : []))
            let label = "case \(index) (\(alias), dry run \(dryRun)): \(arguments.dropFirst().joined(separator: " "))"
            #expect(r.status == 64, "\(label): \(r.stderr)")
            #expect(r.stderr.hasPrefix("Error: "), "\(label): \(r.stderr)")
            #expect(!r.stderr.contains("batch: "), "\(label): a job ran: \(r.stderr)")
            #expect(try Snapshot(w.dir.url.path) == before, "\(label): a file changed")
            cases.append("\(alias)")
        }
        // The generator reached every kind of alias.
        #expect(Set(cases.map { $0.split(separator: " ")[0] }).count == AliasCase.Writer.allCases.count, "\(cases)")
    }
}

/// One alias of the property test: who writes, over what, spelled how.
struct AliasCase: CustomStringConvertible {
    enum Writer: String, CaseIterable { case output, record, report, jsonReport }
    enum Target: String, CaseIterable { case input, manifest, output, record, report }
    enum Spelling: String, CaseIterable { case same, dot, dotDot, linkedDirectory, symlink, hardLink }

    let writer: Writer
    let target: Target
    let spelling: Spelling

    var description: String { "\(writer.rawValue) over \(target.rawValue) \(spelling.rawValue)" }

    /// What each writer can alias: an output has a container's extension, a record ends in
    /// `.hfr-batch.json` (so its target must, too).
    static let targets: [Writer: [Target]] = [
        .output: [.input, .output, .report], .record: [.input, .manifest, .report],
        .report: Target.allCases, .jsonReport: Target.allCases,
    ]

    static func random(_ rng: inout SplitMix64) -> AliasCase {
        let writer = rng.pick(Writer.allCases)
        let target = rng.pick(targets[writer]!)
        let spellings = Self.spellings(of: target)
        return AliasCase(writer: writer, target: target, spelling: rng.pick(spellings))
    }

    /// Existing files have links; files yet to be written only other spellings of their path.
    static func spellings(of target: Target) -> [Spelling] {
        switch target {
        case .input, .manifest: Spelling.allCases
        case .output, .record, .report: [.same, .dot, .dotDot, .linkedDirectory]
        }
    }

    /// Inputs (random bytes: no job may run, so no export reads them), the links to them, an empty
    /// `out/` and `outlink` → `out`.
    static func workspace(_ rng: inout SplitMix64) throws -> BatchWorkspace {
        let w = try BatchWorkspace()
        let fm = FileManager.default
        try fm.createDirectory(atPath: w.dir.path("out"), withIntermediateDirectories: true)
        for name in ["a.mp4", "b.mp4", "r.mp4.hfr-batch.json"] {
            let bytes = (0..<(64 + rng.below(256))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(fm.createFile(atPath: w.dir.path("in/\(name)"), contents: Data(bytes)))
        }
        try fm.createSymbolicLink(atPath: w.dir.path("alias"), withDestinationPath: "in")
        try fm.createSymbolicLink(atPath: w.dir.path("outlink"), withDestinationPath: "out")
        return w
    }

    /// The file names the target, as the manifest (relative to it) or the command line gives them.
    func targetPath() -> String {
        switch target {
        case .input: writer == .record ? "in/r.mp4.hfr-batch.json" : "in/a.mp4"
        case .manifest: "batch.json"
        case .output: "out/b-x.mp4"
        case .record: "out/b-x.mp4.hfr-batch.json"
        case .report: writer == .record ? "out/q.mp4.hfr-batch.json" : "out/rep.mp4"
        }
    }

    /// `path` spelled as `spelling` says; links are made in `w`.
    func spelled(_ path: String, in w: BatchWorkspace) throws -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) }
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        switch spelling {
        case .same: return path
        case .dot: return directory.map { "\($0)/./\(name)" } ?? "./\(name)"
        case .dotDot: return directory.map { "\($0)/../\($0)/\(name)" } ?? "in/../\(name)"
        case .linkedDirectory:
            if directory == "in" { return "alias/\(name)" }
            if directory == "out" { return "outlink/\(name)" }
            try FileManager.default.createSymbolicLink(atPath: w.dir.path("here"), withDestinationPath: ".")
            return "here/\(path)"
        case .symlink, .hardLink:
            let link = (directory.map { "\($0)/" } ?? "") + "link-" + name
            try self.link(link, to: path, in: w)
            return link
        }
    }

    /// Makes `link` a symlink (relative) or a hard link to `path`, both relative to `w`.
    func link(_ link: String, to path: String, in w: BatchWorkspace) throws {
        if spelling == .symlink {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            try FileManager.default.createSymbolicLink(atPath: w.dir.path(link), withDestinationPath: name)
        } else {
            try FileManager.default.linkItem(atPath: w.dir.path(path), toPath: w.dir.path(link))
        }
    }

    /// The manifest written, and `hfr batch`'s arguments (reports as absolute paths).
    func arguments(in w: BatchWorkspace) throws -> [String] {
        var outputs = ["out/a-x.mp4", "out/b-x.mp4", "out/r-x.mp4"]
        var reports: [(String, String)] = []
        var target = targetPath()
        if self.target == .report {
            reports.append((writer == .jsonReport ? "--report" : "--json-report", w.dir.path(target)))
        }
        // Links to the manifest are made before it is written (in place, so a hard link stays one).
        let manifest = w.dir.path("batch.json")
        #expect(FileManager.default.createFile(atPath: manifest, contents: nil))
        var alias: String
        if writer == .record, self.target == .manifest {
            // A record's name ends in .hfr-batch.json: the manifest under such a name.
            target = "m.mp4.hfr-batch.json"
            try AliasCase(writer: writer, target: .input, spelling: spelling == .hardLink ? .hardLink : .symlink)
                .link(target, to: "batch.json", in: w)
            let spelling = [.symlink, .hardLink].contains(self.spelling) ? .same : self.spelling
            alias = try AliasCase(writer: writer, target: .input, spelling: spelling).spelled(target, in: w)
        } else {
            alias = try spelled(target, in: w)
        }
        switch writer {
        case .output: outputs[0] = alias
        case .record: outputs[0] = String(alias.dropLast(".hfr-batch.json".count))
        case .report: reports.append(("--report", w.dir.url.path + "/" + alias))
        case .jsonReport: reports.append(("--json-report", w.dir.url.path + "/" + alias))
        }
        // The output aliased must be another job's: the first job writes the alias.
        try """
        { "schema": "hfr.batch/1",
          "jobs": [
            { "input": "in/a.mp4", "output": "\(outputs[0])", "conform": 30 },
            { "input": "in/b.mp4", "output": "\(outputs[1])", "conform": 30 },
            { "input": "in/r.mp4.hfr-batch.json", "output": "\(outputs[2])", "conform": 30 } ] }
        """.write(toFile: manifest, atomically: false, encoding: .utf8)
        return [manifest] + reports.flatMap { [$0.0, $0.1] }
    }
}

/// Every entry under a directory: a file's bytes, a symlink's target, a directory's name.
struct Snapshot: Equatable {
    let entries: [String: Data]

    init(_ root: String) throws {
        var entries: [String: Data] = [:]
        let fm = FileManager.default
        for path in try fm.subpathsOfDirectory(atPath: root) {
            let full = root + "/" + path
            let type = try fm.attributesOfItem(atPath: full)[.type] as? FileAttributeType
            switch type {
            case .typeSymbolicLink: entries[path] = Data(try fm.destinationOfSymbolicLink(atPath: full).utf8)
            case .typeDirectory: entries[path] = Data("directory".utf8)
            default: entries[path] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        self.entries = entries
    }
}
