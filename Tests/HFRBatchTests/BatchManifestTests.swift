import Foundation
import HFRBatch
import HFRTestSupport
import Testing

/// Reading manifests: expansion, defaults, templates, and errors that name the line and field.
struct BatchManifestTests {
    /// A stand-in for export's table: its parser is the command layer's (tested end to end).
    static let table = ExportOptionTable(
        options: [("conform", .value), ("fps", .value), ("audio", .value)],
        reserved: ["force": "set by hfr batch itself"],
        validate: { arguments in
            arguments.contains("--conform") && arguments.contains("--fps") ? "--conform excludes --fps" : nil
        })

    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("in"), withIntermediateDirectories: true)
        for name in ["a.mp4", "b.mp4", "c.mov", ".hidden.mp4"] {
            #expect(FileManager.default.createFile(atPath: dir.path("in/\(name)"), contents: Data("x".utf8)))
        }
    }

    func manifest(_ text: String) throws(ManifestError) -> BatchManifest {
        try BatchManifest(text: text, path: dir.path("batch.json"), table: Self.table)
    }

    @Test func expandsGlobsAndTemplatesRelativeToTheManifest() throws {
        let m = try manifest(
            """
            { "schema": "hfr.batch/1", "defaults": { "audio": "mute" },
              "jobs": [
                { "input": "in/*.mp4", "output": "out/{stem}-slow.mp4", "conform": 30 },
                { "input": "in/c.mov", "output": "out/{dir}/{name}.mkv", "fps": "60", "audio": null } ] }
            """)
        #expect(m.jobs.map(\.manifestInput) == ["in/a.mp4", "in/b.mp4", "in/c.mov"])
        #expect(m.jobs.map(\.manifestOutput) == ["out/a-slow.mp4", "out/b-slow.mp4", "out/in/c.mov.mkv"])
        #expect(m.jobs[0].input == dir.path("in/a.mp4"))
        #expect(m.jobs[0].output == dir.path("out/a-slow.mp4"))
        // Normalized in the table's order, defaults merged, null removes a default.
        #expect(m.jobs[0].options == ["--conform", "30", "--audio", "mute"])
        #expect(m.jobs[2].options == ["--fps", "60"])
        #expect(m.jobs[2].line == 4)
    }

    @Test func aPatternDoesNotPickUpTheBatchsOwnOutputs() throws {
        #expect(FileManager.default.createFile(atPath: dir.path("in/a-slow.mp4"), contents: Data("x".utf8)))
        let m = try manifest(
            """
            { "schema": "hfr.batch/1",
              "jobs": [ { "input": "in/*.mp4", "output": "in/{stem}-slow.mp4", "conform": 30 } ] }
            """)
        #expect(m.jobs.map(\.manifestInput) == ["in/a.mp4", "in/b.mp4"])
        #expect(m.notes.count == 1)
    }

    @Test(
        arguments: [
            ("{ \"schema\": \"hfr.batch/2\", \"jobs\": [] }", 1, "schema", "unsupported schema"),
            ("{ \"schema\": \"hfr.batch/1\" }", 1, nil, "missing \"jobs\""),
            ("{ \"schema\": \"hfr.batch/1\", \"jobs\": [] }", 1, "jobs", "non-empty array"),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\"} ] }", 3, "jobs[0]",
                "missing \"output\""
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"o.mp4\",\n \"fsp\": 30} ] }",
                4, "jobs[0].fsp", "unknown hfr export option"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"o.mp4\", \"force\": true} ] }",
                3, "jobs[0].force", "set by hfr batch itself"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"o.mp4\",\n \"conform\": true} ] }",
                4, "jobs[0].conform", "must be a string or a number"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"o.mp4\",\n \"conform\": 30, \"fps\": 60} ] }",
                4, "jobs[0].conform", "--conform excludes --fps"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/x.mp4\", \"output\": \"o.mp4\"} ] }",
                3,
                "jobs[0].input", "No such file"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/*.mkv\", \"output\": \"o.mp4\"} ] }",
                3,
                "jobs[0].input", "matches no file"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/*.mp4\", \"output\": \"o.mp4\"} ] }",
                3,
                "jobs[0].output", "put {stem} or {name} in it"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"o.mp4\"},\n"
                    + " {\"input\": \"in/b.mp4\", \"output\": \"./o.mp4\"} ] }", 4, "jobs[1].output",
                "also written by jobs[0] (line 3)"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"in/b.mp4\"},\n"
                    + " {\"input\": \"in/b.mp4\", \"output\": \"o.mp4\"} ] }", 3, "jobs[0].output",
                "is an input of jobs[1]"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"o.xyz\"} ] }",
                3,
                "jobs[0].output", "unknown container"
            ),
            (
                "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/a.mp4\", \"output\": \"{base}.mp4\"} ] }",
                3,
                "jobs[0].output", "unknown placeholder {base}"
            ),
        ] as [(String, Int, String?, String)])
    func badManifestsNameTheLineAndField(text: String, line: Int, field: String?, message: String) {
        do {
            _ = try manifest(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.position?.line == line, "\(error)")
            #expect(error.field == field, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// An output that is an input's file under another name: a hard link, a symlink, a symlinked
    /// directory (the lexical check sees three different paths).
    @Test(arguments: ["hard", "symlink", "directory"])
    func anOutputThatIsAnInputByInodeIsRefused(link: String) throws {
        let fm = FileManager.default
        let output: String
        switch link {
        case "hard":
            try fm.linkItem(atPath: dir.path("in/a.mp4"), toPath: dir.path("in/copy.mp4"))
            output = "in/copy.mp4"
        case "symlink":
            try fm.createSymbolicLink(atPath: dir.path("in/copy.mp4"), withDestinationPath: "a.mp4")
            output = "in/copy.mp4"
        default:
            try fm.createSymbolicLink(atPath: dir.path("alias"), withDestinationPath: "in")
            output = "alias/a.mp4"
        }
        let text =
            "{ \"schema\": \"hfr.batch/1\",\n \"jobs\": [\n {\"input\": \"in/b.mp4\", \"output\": \"\(output)\"},\n"
            + " {\"input\": \"in/a.mp4\", \"output\": \"o.mp4\"} ] }"
        do {
            _ = try manifest(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.position?.line == 3, "\(error)")
            #expect(error.field == "jobs[0].output", "\(error)")
            #expect(
                error.message
                    == "\(output) is the same file as in/a.mp4, an input of jobs[1]; inputs are never modified")
        }
    }

    @Test func invalidJSONGivesLineAndColumn() {
        do {
            _ = try manifest("{ \"schema\": \"hfr.batch/1\",\n  \"jobs\": [ { \"input\": 'a' } ] }")
            Issue.record("accepted")
        } catch {
            #expect(error.position == TextPosition(line: 2, column: 24))
            #expect(error.describe(manifest: "b.json").hasPrefix("b.json:2:24: invalid JSON: unexpected character"))
        }
    }
}
