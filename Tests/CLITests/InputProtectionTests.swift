import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Inputs are untouchable: no alias, symlink or hard link lets `hfr export` or `hfr batch` write
/// over an input, `--force` or not. Each is refused at once (exit 64, naming both files), the input
/// keeps its bytes (SHA-256 before and after) and nothing is left in the directory.
@Suite struct InputProtectionTests {
    /// How the output names the input `dir/a.mp4`.
    enum Alias: String, CaseIterable, Sendable {
        case dotSlash, dotDot, symlink, hardLink, symlinkedDirectory, inputIsSymlink
    }

    /// A copy of the layered fixture as `a.mp4`, and the alias made for it; (input, output).
    static func arrange(_ alias: Alias, in dir: TemporaryDirectory) throws -> (input: String, output: String) {
        let fm = FileManager.default
        let input = dir.path("a.mp4")
        try fm.copyItem(atPath: Fixtures.path("layered-120fps.mp4"), toPath: input)
        switch alias {
        case .dotSlash:
            return (input, dir.url.path + "/./a.mp4")
        case .dotDot:
            try fm.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: false)
            return (input, dir.path("sub") + "/../a.mp4")
        case .symlink:
            try fm.createSymbolicLink(atPath: dir.path("link.mp4"), withDestinationPath: "a.mp4")
            return (input, dir.path("link.mp4"))
        case .hardLink:
            try fm.linkItem(atPath: input, toPath: dir.path("hard.mp4"))
            return (input, dir.path("hard.mp4"))
        case .symlinkedDirectory:
            try fm.createSymbolicLink(atPath: dir.path("here"), withDestinationPath: dir.url.path)
            return (input, dir.path("here") + "/a.mp4")
        case .inputIsSymlink:
            try fm.createSymbolicLink(atPath: dir.path("link.mp4"), withDestinationPath: "a.mp4")
            return (dir.path("link.mp4"), input)
        }
    }

    static func sha256(_ path: String) throws -> String {
        let r = try Tool.run("sha256sum", [path])
        try #require(r.status == 0, "sha256sum: \(r.stderr)")
        return String(r.stdout.prefix(64))
    }

    /// Runs hfr and checks: exit 64, one `Error:` line naming `names`, `protected` unchanged, the
    /// directory as it was.
    static func expectRefused(
        _ arguments: [String], naming names: [String], protecting protected: String, in dir: TemporaryDirectory
    ) throws {
        let before = try sha256(protected)
        let contents = try dir.contents()
        let r = try Tool.hfr(arguments)
        #expect(r.status == 64, "stderr: \(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1, "stderr: \(r.stderr)")
        for name in names { #expect(errors.first?.contains(name) == true, "\(name) not named: \(r.stderr)") }
        #expect(try sha256(protected) == before, "the input was modified")
        #expect(try dir.contents() == contents)
    }

    @Test(arguments: Alias.allCases, [false, true])
    func exportRefusesToWriteOverItsInput(alias: Alias, force: Bool) throws {
        let dir = try TemporaryDirectory()
        let (input, output) = try Self.arrange(alias, in: dir)
        try Self.expectRefused(
            ["export", input, output, "--conform", "30"] + (force ? ["--force"] : []), naming: [input, output],
            protecting: dir.path("a.mp4"), in: dir)
    }

    /// A raw stream's timestamps file is an input too: `--timestamps t.mp4` and OUTPUT `t.mp4`.
    @Test(arguments: [false, true])
    func exportRefusesToWriteOverItsTimestampsFile(force: Bool) throws {
        let dir = try TemporaryDirectory()
        let raw = dir.path("raw.h264")
        try ExportInputs.ffmpeg([
            "-i", Fixtures.path("layered-120fps.mp4"), "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb",
            "-f", "h264", raw,
        ])
        let frames = try FFprobe.count(Fixtures.path("layered-120fps.mp4"), decoding: false)
        try #require(frames > 0)
        let times = (0..<frames).map { String(format: "%.3f", Double($0) * 1000 / 120) }
        let timestamps = dir.path("t.mp4")
        try (["# timestamp format v2"] + times + [""]).joined(separator: "\n").write(
            toFile: timestamps, atomically: true, encoding: .utf8)
        try Self.expectRefused(
            ["export", raw, timestamps, "--timestamps", timestamps, "--conform", "30"] + (force ? ["--force"] : []),
            naming: [timestamps], protecting: timestamps, in: dir)
    }

    /// A batch job whose output is an input under another name (a hard link, a symlink, a path
    /// through a symlinked directory) is refused with the manifest, before any job runs.
    @Test(arguments: [Alias.hardLink, .symlink, .symlinkedDirectory], [false, true])
    func batchRefusesAJobWritingOverAnInput(alias: Alias, force: Bool) throws {
        let dir = try TemporaryDirectory()
        let (_, output) = try Self.arrange(alias, in: dir)
        let relative = String(output.dropFirst(dir.url.path.count + 1))
        // The aliased output belongs to the second job; the first reads a.mp4.
        try FileManager.default.copyItem(atPath: Fixtures.path("layered-120fps.mp4"), toPath: dir.path("b.mp4"))
        let manifest = dir.path("batch.json")
        try """
        { "schema": "hfr.batch/1", "jobs": [
          { "input": "a.mp4", "output": "a-30.mp4", "conform": 30 },
          { "input": "b.mp4", "output": "\(relative)", "conform": 30 } ] }
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        try Self.expectRefused(
            ["batch", manifest, "-j", "1"] + (force ? ["--force"] : []), naming: [relative, "a.mp4"],
            protecting: dir.path("a.mp4"), in: dir)
    }
}
