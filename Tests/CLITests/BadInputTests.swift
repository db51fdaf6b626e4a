import Foundation
import HFRTestSupport
import Testing

/// Every bad input: one line naming the file and the cause, the exit code of SPEC.md, nothing written.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let prepare: @Sendable (TemporaryDirectory) throws -> String
        let exitCode: Int32
        let cause: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing", prepare: { $0.path("nope.mp4") }, exitCode: 74, cause: "no such file"),
        Case(name: "empty", prepare: { try Fixtures.copy("empty.mp4", to: $0) }, exitCode: 65, cause: "empty file"),
        Case(name: "truncated", prepare: { try Fixtures.copy("truncated.mp4", to: $0) }, exitCode: 65, cause: ""),
        Case(
            name: "not media", prepare: { try Fixtures.copy("not-media.mp4", to: $0) }, exitCode: 65,
            cause: "not a media file"),
        Case(
            name: "directory",
            prepare: { dir in
                let p = dir.path("folder.mp4")
                try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: false)
                return p
            }, exitCode: 74, cause: "is a directory"),
    ]

    @Test(arguments: cases)
    func reportsOneLineAndExitCode(c: Case) throws {
        let dir = try TemporaryDirectory()
        let path = try c.prepare(dir)
        let before = try dir.contents()
        let r = try Tool.hfr(["probe", path])
        #expect(r.status == c.exitCode, "stderr: \(r.stderr)")
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: \(path): \(c.cause)"))
        #expect(try dir.contents() == before)
        // --json changes nothing about failures.
        #expect(try Tool.hfr(["probe", "--json", path]).status == c.exitCode)
    }

    @Test func unreadableFileIsAnIOError() throws {
        let dir = try TemporaryDirectory()
        let path = try Fixtures.copy("layered-120fps.mp4", to: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        let r: ToolResult
        if getuid() == 0 {
            // root reads any file; drop to nobody so the permission check is real.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
            r = try Tool.run(
                "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Tool.hfrPath, "probe", path])
        } else {
            r = try Tool.hfr(["probe", path])
        }
        #expect(r.status == 74, "stderr: \(r.stderr)")
        #expect(r.stderr == "Error: \(path): permission denied\n")
    }

    @Test func mediaDataCutShortIsTruncatedEvenWithTheIndexIntact() throws {
        let dir = try TemporaryDirectory()
        let whole = dir.path("faststart.mp4")
        // faststart puts the index (moov) first, so cutting the end leaves a readable header.
        try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-i", Fixtures.path("layered-120fps.mp4"), "-c", "copy",
                "-movflags", "+faststart", whole,
            ])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = dir.path("cut.mp4")
        try data.prefix(data.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        let r = try Tool.hfr(["probe", cut])
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("Error: \(cut): truncated"), "stderr: \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func truncatedFileNamesTheProblem() throws {
        let r = try Tool.hfr(["probe", Fixtures.path("truncated.mp4")])
        #expect(r.status == 65)
        #expect(r.stderr.contains("truncated") || r.stderr.contains("not a media file"), "stderr: \(r.stderr)")
    }
}
