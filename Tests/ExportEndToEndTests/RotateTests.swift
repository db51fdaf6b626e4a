import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `--rotate`: degrees clockwise a viewer turns the picture, written as the MP4/MOV display matrix
/// (a phone held upright records `--rotate 90`), read back by ffprobe (which counts
/// counter-clockwise: −90), exiftool (`Rotation: 90`), ffmpeg's autorotation and `hfr probe`.
@Suite(.serialized) struct RotateTests {
    /// ffprobe's view of the first video stream's display matrix: its `rotation` and its nine
    /// values; nil without one.
    static func displayMatrix(_ path: String) throws -> (rotation: Int, matrix: [Int])? {
        let r = try Tool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_streams", "-of", "json", path])
        let stream = try #require((try Tool.json(r.stdout)["streams"] as? [[String: Any]])?.first)
        let sides = stream["side_data_list"] as? [[String: Any]] ?? []
        guard let side = sides.first(where: { $0["side_data_type"] as? String == "Display Matrix" }) else {
            return nil
        }
        // "00000000:            0       65536           0\n…": three rows after their offsets.
        let text = try #require(side["displaymatrix"] as? String)
        let values = text.split(separator: "\n").flatMap { $0.split(separator: " ").dropFirst().compactMap { Int($0) } }
        return (try #require(side["rotation"] as? Int), values)
    }

    static func exifRotation(_ path: String) throws -> String {
        try Tool.run("exiftool", ["-s3", "-Rotation", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// mkvinfo's "Projection's roll rotation" of the video track; nil without one.
    static func matroskaRoll(_ path: String) throws -> String? {
        let lines = try Tool.run("mkvinfo", [path]).stdout.split(separator: "\n")
        let line = lines.first { $0.contains("Projection's roll rotation:") }
        return line.map { String($0.split(separator: ":").last!).trimmingCharacters(in: .whitespaces) }
    }

    /// The size ffmpeg decodes the first frame to, autorotating (as players do) or not.
    static func frameSize(_ path: String, autorotate: Bool, _ dir: TemporaryDirectory) throws -> String {
        let png = dir.path("frame-\(UUID().uuidString).png")
        let r = try Tool.run(
            "ffmpeg",
            ["-v", "error", "-nostdin"] + (autorotate ? [] : ["-noautorotate"])
                + ["-i", path, "-frames:v", "1", png])
        #expect(r.status == 0, "\(r.stderr)")
        return try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", png])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// 1 s at 120 fps, 1280x720; `--late-frames queue`: every frame, however busy the machine.
    static func record(_ path: String, rotate: Int) throws {
        let r = try Tool.hfr([
            "record", "-q", "--source", "test", "--fps", "120", "--duration", "1", "--late-frames", "queue",
            "--rotate", "\(rotate)", path,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
    }

    /// ffprobe prints −90 for a clockwise quarter turn, −180 for a half turn and 90 for three
    /// quarters (`av_display_rotation_get`); exiftool's Rotation is the clockwise value itself.
    @Test(arguments: [
        (90, "mp4", -90), (180, "mp4", -180), (270, "mp4", 90), (90, "mov", -90), (270, "mov", 90), (90, "mkv", -90),
        (180, "mkv", -180), (270, "mkv", 90),
    ])
    func recordWritesTheDisplayMatrix(rotate: Int, container: String, ffprobe: Int) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.\(container)")
        try RotateTests.record(out, rotate: rotate)
        let matrix = try #require(try RotateTests.displayMatrix(out))
        #expect(matrix.rotation == ffprobe)
        if rotate == 90 {
            // A phone's portrait matrix: 0 1 0 / -1 0 0, 16.16 fixed point (translation aside).
            #expect(Array(matrix.matrix.prefix(5)) == [0, 65536, 0, -65536, 0], "\(matrix.matrix)")
        }
        if container == "mkv" {
            // FFmpeg 5.1's muxer writes none: hfr adds a Projection whose roll is ffprobe's angle.
            #expect(try RotateTests.matroskaRoll(out) == "\(ffprobe == -180 ? 180 : ffprobe)")
        } else {
            #expect(try RotateTests.exifRotation(out) == "\(rotate)")
        }
        let text = try Tool.hfr(["probe", out]).stdout
        #expect(text.contains("1280x720 yuv420p, rotation \(rotate)° clockwise"), "\(text)")
        let json = try Tool.json(try Tool.hfr(["probe", "--json", out]).stdout)
        let video = try #require((json["streams"] as? [[String: Any]])?.first)
        #expect(video["clockwiseRotation"] as? Int == rotate)
        #expect(video["rotation"] as? Double == Double(ffprobe))
    }

    /// The pictures are stored as captured (1280x720); players that honour the matrix turn them
    /// to portrait.
    @Test func aQuarterTurnPlaysAsPortrait() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        try RotateTests.record(out, rotate: 90)
        #expect(try RotateTests.frameSize(out, autorotate: true, dir) == "720,1280")
        #expect(try RotateTests.frameSize(out, autorotate: false, dir) == "1280,720")
    }

    @Test func withoutRotateThereIsNoMatrix() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        try RotateTests.record(out, rotate: 0)
        #expect(try RotateTests.displayMatrix(out) == nil)
        #expect(try !Tool.hfr(["probe", out]).stdout.contains("rotation"))
    }

    /// The fragmented file written while recording has the matrix in its header: a recording killed
    /// mid-way keeps it.
    @Test func killedRecordingKeepsTheRotation() throws {
        let dir = try TemporaryDirectory()
        let process = try BackgroundProcess(
            Tool.hfrPath,
            ["record", "--source", "test", "--fps", "120", "--size", "640x360", "--rotate", "90", dir.path("out.mp4")],
            directory: dir)
        // Killed once the partial file holds a whole fragment of frames (a second one has begun
        // after it), however long the machine takes to get there.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.process.isRunning,
            (try? MP4Boxes.topLevel(dir.path("out.partial.mp4")).filter { $0 == "moof" }.count) ?? 0 < 2
        {
            usleep(50_000)
        }
        process.send(SIGKILL)
        _ = process.wait()
        #expect(process.wasSignalled)
        let partial = dir.path("out.partial.mp4")
        #expect(try RotateTests.displayMatrix(partial)?.rotation == -90)
        #expect(try RotateTests.exifRotation(partial) == "90")
        #expect(try RotateTests.frameSize(partial, autorotate: true, dir) == "360,640")
    }
}

/// What exports do with the rotation: keep it (copies and re-encodes), replace it, clear it.
@Suite(.serialized) struct ExportRotateTests {
    static let directory = try? TemporaryDirectory()
    /// 1 s at 120 fps, 1280x720, `--rotate 90`.
    static let rotated = Result { () throws -> String in
        guard let directory else { throw CocoaError(.fileWriteUnknown) }
        let out = directory.path("rotated90.mp4")
        try RotateTests.record(out, rotate: 90)
        return out
    }

    @Test(arguments: [
        (["--conform", "30"], "mp4"), (["--fps", "30"], "mov"), (["--conform", "30", "--reencode", "always"], "mp4"),
        (["--conform", "30"], "mkv"), (["--fps", "60", "--reencode", "always"], "mkv"),
    ])
    func exportsKeepIt(options: [String], container: String) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.\(container)")
        let r = try Tool.hfr(["export", try ExportRotateTests.rotated.get(), out] + options)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try RotateTests.displayMatrix(out)?.rotation == -90)
        if container == "mkv" {
            #expect(try RotateTests.matroskaRoll(out) == "-90")
        } else {
            #expect(try RotateTests.exifRotation(out) == "90")
        }
        #expect(try RotateTests.frameSize(out, autorotate: true, dir) == "720,1280")
    }

    /// A Matroska recording's rotation (its Projection roll) goes on into MP4 as the display matrix;
    /// `--rotate` into Matroska sets or clears the roll.
    @Test func matroskaCarriesItBothWays() throws {
        let dir = try TemporaryDirectory()
        let recorded = dir.path("rec.mkv")
        try RotateTests.record(recorded, rotate: 90)
        let mp4 = dir.path("out.mp4")
        #expect(try Tool.hfr(["export", recorded, mp4, "--conform", "30"]).status == 0)
        #expect(try RotateTests.displayMatrix(mp4)?.rotation == -90)
        #expect(try RotateTests.exifRotation(mp4) == "90")
        let turned = dir.path("turned.mkv")
        #expect(try Tool.hfr(["export", recorded, turned, "--conform", "30", "--rotate", "270"]).status == 0)
        #expect(try RotateTests.matroskaRoll(turned) == "90")
        #expect(try RotateTests.displayMatrix(turned)?.rotation == 90)
        let cleared = dir.path("cleared.mkv")
        let r = try Tool.hfr(["export", recorded, cleared, "--conform", "30", "--rotate", "0"])
        #expect(r.status == 0 && !r.stderr.contains("display matrix"), "\(r.stderr)")
        #expect(try RotateTests.matroskaRoll(cleared) == nil)
        #expect(try RotateTests.displayMatrix(cleared) == nil)
    }

    /// `--rotate 0`: no display matrix at all (ffprobe lists no side data), the picture upright.
    @Test func rotateZeroClearsIt() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", try ExportRotateTests.rotated.get(), out, "--conform", "30", "--rotate", "0"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try RotateTests.displayMatrix(out) == nil)
        #expect(try RotateTests.frameSize(out, autorotate: true, dir) == "1280,720")
        let json = try Tool.json(try Tool.hfr(["probe", "--json", out]).stdout)
        let video = try #require((json["streams"] as? [[String: Any]])?.first)
        #expect(video["clockwiseRotation"] as? Int == 0)
        #expect(video["rotation"] is NSNull)
    }

    /// An unrotated recording, and one ffmpeg tagged `rotate=90` (which FFmpeg 5.1 writes as a
    /// counter-clockwise quarter turn: ffprobe 90, exiftool 270), both given `--rotate 270`.
    @Test func rotateSetsIt() throws {
        let dir = try TemporaryDirectory()
        let plain = dir.path("plain.mp4")
        try RotateTests.record(plain, rotate: 0)
        let tagged = dir.path("tagged.mp4")
        try ExportInputs.ffmpeg(["-i", plain, "-map", "0", "-c", "copy", "-metadata:s:v", "rotate=90", tagged])
        #expect(try RotateTests.exifRotation(tagged) == "270")
        #expect(try Tool.hfr(["probe", tagged]).stdout.contains("rotation 270° clockwise"))
        for (input, rotate, ffprobe) in [(plain, "270", 90), (tagged, "90", -90), (plain, "180", -180)] {
            let out = dir.path("out\(rotate).mp4")
            let r = try Tool.hfr(["export", input, out, "--conform", "30", "--rotate", rotate])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try RotateTests.displayMatrix(out)?.rotation == ffprobe)
            #expect(try RotateTests.exifRotation(out) == rotate)
        }
    }

    /// Anything but 0, 90, 180, 270 is a usage error; nothing is written.
    @Test func invalidValuesAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        let input = try ExportRotateTests.rotated.get()
        for value in ["45", "abc", "-90", "360", ""] {
            let rec = try Tool.hfr([
                "record", "--source", "test", "--duration", "1", "--rotate", value, dir.path("r.mp4"),
            ])
            #expect(rec.status == 64, "record --rotate '\(value)': \(rec.stderr)")
            #expect(rec.stderr.contains("--rotate"), "\(rec.stderr)")
            let exp = try Tool.hfr(["export", input, dir.path("e.mp4"), "--conform", "30", "--rotate", value])
            #expect(exp.status == 64, "export --rotate '\(value)': \(exp.stderr)")
        }
        #expect(try dir.contents().isEmpty)
    }
}
