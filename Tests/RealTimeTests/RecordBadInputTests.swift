import Foundation
import HFRTestSupport
import Testing

/// `hfr record` refusing what it cannot do: one line, the documented exit code, nothing left behind.
@Suite(.serialized) struct RecordBadInputTests {
    func expectRefusal(
        _ arguments: [String], exitCode: Int32, mentions: String, in dir: TemporaryDirectory,
        leaves expected: [String] = []
    ) throws {
        let r = try Tool.hfr(["record"] + arguments)
        #expect(r.status == exitCode, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: ") && r.stderr.contains(mentions), "stderr: \(r.stderr)")
        if exitCode != 64 { #expect(r.stderr.split(separator: "\n").count == 1, "stderr: \(r.stderr)") }
        #expect(r.stdout.isEmpty)
        #expect(try dir.contents() == expected)
    }

    @Test(arguments: [
        (["--fps", "0"], "--fps"), (["--fps", "5000"], "above 1000"), (["--fps", "fast"], "--fps"),
        (["--size", "641x480"], "--size 641x480 has an odd side"), (["--size", "0x0"], "--size"),
        (["--size", "99999x10"], "--size 99999x10 has an odd side"),
        (["--size", "8192x1088"], "--size 8192x1088 is outside 16x16 to 7680x4320"),
        (["--size", "4000x4000"], "--size 4000x4000 is beyond H.264 level 5.2: 62500 macroblocks"),
        (["--size", "4352x2176"], "36992 macroblocks of 16x16, at most 36864"),
        (["--layers", "5"], "--layers"), (["--duration", "-1"], "--duration"), (["--frames", "0"], "--frames"),
        (["--late-frames", "later"], "--late-frames"), (["--duration", "1", "--frames", "5"], "exclude"),
        (["--audio-rate", "192000"], "--audio-rate sets a capture device's rate"),
        (["--audio", "hw:9", "--audio-rate", "500000"], "--audio-rate must be 8000 to 384000 Hz, not 500000"),
        (["--audio", "hw:9", "--audio-rate", "fast"], "--audio-rate"),
    ])
    func impossibleRequestsForTheTestSourceAreUsageErrors(arguments: [String], mentions: String) throws {
        let dir = try TemporaryDirectory()
        try expectRefusal(
            ["--source", "test"] + arguments + [dir.path("out.mp4")], exitCode: 64, mentions: mentions, in: dir)
    }

    /// `--source lavfi:GRAPH` that FFmpeg cannot run, or none given: usage errors naming the graph.
    @Test(arguments: [
        ("lavfi:nosuchfilter", "lavfi source: cannot make 320x240 at 30 fps from the filter graph 'nosuchfilter'"),
        ("lavfi:", "--source lavfi: needs a filter graph"), ("camera", "unknown source 'camera'"),
    ])
    func badSourcesAreUsageErrors(source: String, mentions: String) throws {
        let dir = try TemporaryDirectory()
        try expectRefusal(
            ["--source", source, "--size", "320x240", "--fps", "30", "--frames", "5", dir.path("out.mp4")],
            exitCode: 64,
            mentions: mentions, in: dir)
    }

    @Test func unknownDeviceIsUnavailable() throws {
        let dir = try TemporaryDirectory()
        try expectRefusal(
            ["--device", "/dev/video-none", "--fps", "30", "--size", "640x480", dir.path("out.mp4")],
            exitCode: 69, mentions: "/dev/video-none: no such device", in: dir)
    }

    @Test(arguments: ["/dev/null", "regular-file"])
    func pathThatIsNotACaptureDeviceIsUnavailable(device: String) throws {
        let dir = try TemporaryDirectory()
        var path = device
        if device == "regular-file" {
            path = dir.path("not-a-camera")
            try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        }
        try expectRefusal(
            ["--device", path, "--fps", "30", "--size", "640x480", dir.path("out.mp4")], exitCode: 69,
            mentions: "\(path): ", in: dir, leaves: device == "regular-file" ? ["not-a-camera"] : [])
    }

    @Test func existingOutputIsNotReplacedWithoutForce() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        try expectRefusal(
            ["--source", "test", "--frames", "10", out], exitCode: 74, mentions: "already exists", in: dir,
            leaves: ["out.mp4"])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "precious")
        let forced = try Tool.hfr(["record", "--source", "test", "--frames", "10", "--size", "320x240", "--force", out])
        #expect(forced.status == 0, "stderr: \(forced.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 10)
    }

    @Test func missingOrUnwritableOutputDirectoryIsAnIOError() throws {
        let dir = try TemporaryDirectory()
        try expectRefusal(
            ["--source", "test", "--frames", "10", dir.path("nowhere/out.mp4")], exitCode: 74,
            mentions: "does not exist", in: dir)
        let locked = dir.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        // root writes anywhere; run as nobody so the permission check is real.
        let runner = getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let r = try Tool.run(
            runner.first ?? Tool.hfrPath,
            Array(runner.dropFirst()) + (runner.isEmpty ? [] : [Tool.hfrPath])
                + ["record", "--source", "test", "--frames", "10", locked + "/out.mp4"])
        #expect(r.status == 74, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: \(locked)/out.mp4: cannot write in \(locked)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
    }

    @Test func unknownContainerIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        try expectRefusal(
            ["--source", "test", "--frames", "10", dir.path("out.xyz")], exitCode: 64, mentions: "unknown container",
            in: dir)
    }

    /// A 3 MB tmpfs fills within seconds at 720p120: hfr keeps a playable file of what it captured.
    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func fullDiskKeepsAPlayableFileOfWhatWasCaptured() throws {
        let dir = try TemporaryDirectory()
        let mount = dir.path("small")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: false)
        let mounted = try Tool.run("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mount])
        try #require(mounted.status == 0, "mount failed: \(mounted.stderr)")
        defer { _ = try? Tool.run("umount", [mount]) }
        let out = mount + "/out.mp4"
        let r = try Tool.hfr([
            "record", "--source", "test", "--fps", "120", "--size", "1280x720", "--duration", "30", out,
        ])
        #expect(r.status == 74, "stderr: \(r.stderr)")
        // One line beside the mode line and the progress lines (`record: …`), and the warning a
        // machine too loaded for the test source to keep up at 720p120 gives.
        let lines = r.stderr.split(separator: "\n").filter {
            !$0.hasPrefix("record: ") && !$0.hasPrefix("Warning: test source delivers ")
        }
        #expect(lines.count == 1 && lines[0].hasPrefix("Error: \(out): disk full; kept the "), "stderr: \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount) == ["out.mp4"])
        let decode = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", out, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "decode: \(decode.stderr)")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) > 60)
    }
}
