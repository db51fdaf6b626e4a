import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Corrupt inputs that FFmpeg still opens, made by editing one field of an MP4 box of a real file:
/// export refuses each before anything is written (exit 65, one `Error:` line naming the file and
/// the cause, nothing left, input bytes unchanged), through every analysis path — the header
/// (tagged capture rate), the MP4 index (untagged), and the packets (`--fps`).
@Suite(.serialized) struct ExportCorruptInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The base file: "tagged" (capture rate in the header), "plain" (untagged), "bframes", "hevc".
        let base: String
        let edit: @Sendable (inout Data) throws -> Void
        let options: [String]
        let cause: String
        var testDescription: String { "\(name) (\(base), \(options.joined(separator: " ")))" }
    }

    static let cases: [Case] =
        ["tagged", "plain"].flatMap { base in
            [
                Case(
                    name: "avcC version 0", base: base, edit: { try MP4Edit.set(&$0, "avcC", at: 0, [0]) },
                    options: ["--conform", "30"], cause: "video decoder configuration (avcC) is corrupt"),
                Case(
                    name: "avcC without SPS", base: base, edit: { try MP4Edit.set(&$0, "avcC", at: 5, [0xE0]) },
                    options: ["--conform", "30"], cause: "video decoder configuration (avcC) is corrupt"),
                Case(
                    name: "avcC SPS length past the box", base: base,
                    edit: { try MP4Edit.set(&$0, "avcC", at: 6, [0xFF, 0xFF]) }, options: ["--conform", "30"],
                    cause: "video decoder configuration (avcC) is corrupt"),
                Case(
                    name: "avcC zeroed SPS", base: base, edit: MP4Edit.zeroSPS, options: ["--fps", "60"],
                    cause: "video decoder configuration (avcC) is corrupt"),
                // The key frame still decodes (as a 32x32 picture); every frame after it fails. It
                // was copied with exit 0 while the re-encode of --fps 60 refused it.
                Case(
                    name: "avcC SPS picture size changed", base: base, edit: MP4Edit.shrinkSPSPicture,
                    options: ["--conform", "30"], cause: "the video does not decode after its first key frame"),
                Case(
                    name: "avcC SPS picture size changed", base: base, edit: MP4Edit.shrinkSPSPicture,
                    options: ["--fps", "120"], cause: "the video does not decode after its first key frame"),
                Case(
                    name: "stts delta 0", base: base, edit: { try MP4Edit.set(&$0, "stts", at: 12, [0, 0, 0, 0]) },
                    options: ["--conform", "30"], cause: "timestamps repeat at frame 2"),
                Case(
                    name: "stts delta 0xFFFFFFFF", base: base,
                    edit: { try MP4Edit.set(&$0, "stts", at: 12, [0xFF, 0xFF, 0xFF, 0xFF]) },
                    options: ["--conform", "30"], cause: "not between 1/1000 and 10000 fps"),
                Case(
                    name: "mdhd version flipped", base: base, edit: { try MP4Edit.set(&$0, "mdhd", at: 0, [1]) },
                    options: ["--conform", "30"], cause: "not between 1/1000 and 10000 fps"),
                Case(
                    name: "stts without entries", base: base,
                    edit: { try MP4Edit.set(&$0, "stts", at: 4, [0, 0, 0, 0]) }, options: ["--conform", "30"],
                    cause: "the video stream has no frames"),
                // FFmpeg fails with ENOMEM on a table claiming 2³¹ entries: bad data, not I/O.
                Case(
                    name: "stts entry count absurd", base: base,
                    edit: { try MP4Edit.set(&$0, "stts", at: 4, [0x7F, 0xFF, 0xFF, 0xFF]) },
                    options: ["--conform", "30"], cause: "not a media file or unreadable container"),
                // The AAC AudioSpecificConfig zeroed: no decoder opens (it was exit 74, blaming the output).
                Case(
                    name: "esds config zeroed", base: base, edit: MP4Edit.zeroAudioConfig,
                    options: base == "plain" ? ["--fps", "60"] : ["--conform", "30"],
                    cause: "audio decoder configuration is corrupt"),
            ]
        } + [
            // One composition offset wrong in `ctts`: the copied frames would not be where the file says.
            Case(
                name: "ctts offset huge", base: "bframes",
                edit: { try MP4Edit.set(&$0, "ctts", at: 12, [0x7F, 0xFF, 0xFF, 0x00]) },
                options: ["--conform", "30"], cause: "corrupt timestamps"),
            // (On the first sample, the same offset only moves it before the edit list's start,
            // where it is hidden in the input as in the output: a faithful export.)
            Case(
                name: "ctts offset negative", base: "bframes",
                edit: { try MP4Edit.set(&$0, "ctts", at: 52, [0xFF, 0xFF, 0xFF, 0x00]) },
                options: ["--conform", "30"], cause: "corrupt timestamps"),
            Case(
                name: "hvcC version 0", base: "hevc", edit: { try MP4Edit.set(&$0, "hvcC", at: 0, [0]) },
                options: ["--conform", "30"], cause: "video decoder configuration (hvcC) is corrupt"),
            Case(
                name: "hvcC arrays zeroed", base: "hevc",
                edit: { try MP4Edit.set(&$0, "hvcC", at: 23, [UInt8](repeating: 0, count: 30)) },
                options: ["--fps", "60"], cause: "video decoder configuration (hvcC) is corrupt"),
        ]

    @Test(arguments: cases)
    func refusedWithNothingLeft(c: Case) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("\(c.base)-corrupt.mp4")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try CorruptInputs.base(c.base)))
        try c.edit(&bytes)
        try bytes.write(to: URL(fileURLWithPath: input))
        let before = try dir.contents()
        let r = try Tool.hfr(["export", input, dir.path("out.mp4")] + c.options)
        #expect(r.status == 65, "stderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("export: ") }
        #expect(lines.count == 1, "stderr: \(r.stderr)")
        #expect(lines.first?.hasPrefix("Error: \(input): ") == true, "stderr: \(r.stderr)")
        #expect(lines.first?.contains(c.cause) == true, "stderr: \(r.stderr)")
        #expect(try dir.contents() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == bytes)
    }

    /// The unedited bases export (the checks refuse only what is broken).
    @Test(arguments: ["tagged", "plain", "hevc", "bframes", "fragmented"])
    func intactBasesExport(base: String) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", try CorruptInputs.base(base), out, "--conform", "30"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// Capture-rate tags no camera writes are ignored with a note naming them, and the measured
    /// 120 fps is used: `--fps 60` keeps 1 frame in 2 over the 2 s recorded.
    @Test(arguments: ["0.0000001", "2147483647", "nan", "0"])
    func absurdCaptureRateTagIsIgnoredWithANote(value: String) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("tag.mp4")
        try ExportInputs.ffmpeg([
            "-i", try CorruptInputs.base("plain"), "-c", "copy", "-metadata", "com.android.capture.fps=\(value)",
            "-movflags", "+use_metadata_tags", input,
        ])
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--fps", "60", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let note = "com.android.capture.fps = \"\(value)\" ignored"
        let stderr = r.stderr.split(separator: "\n")
        #expect(stderr.filter { $0.hasPrefix("Note: ") && $0.contains(note) }.count == 1, "stderr: \(r.stderr)")
        #expect(stderr.allSatisfy { $0.hasPrefix("Note: ") || Self.isOwnLine($0) }, "stderr: \(r.stderr)")
        let json = try Tool.json(r.stdout)
        #expect(json["captureFrameRate"] as? String == "120/1")
        #expect((json["notes"] as? [String])?.contains { $0.contains(note) } == true)
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == 120)
        #expect(abs(try MediaChecks.duration(out, stream: "v:0") - 2) < 0.001)
        let probe = try Tool.hfr(["probe", input])
        #expect(probe.status == 0)
        #expect(probe.stdout.contains("Capture rate: 120 fps (measured)"), "\(probe.stdout)")
        #expect(probe.stdout.contains("Note: capture-rate tag \(note)"), "\(probe.stdout)")
    }

    /// A slowed file's tag (120 fps captured, playing at 30) is not absurd: used, no note.
    @Test func slowedFileTagIsUsed() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("slowed.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30", "-t", "2", "-c:v", "libx264", "-metadata",
            "com.android.capture.fps=120", "-movflags", "+use_metadata_tags", input,
        ])
        let r = try Tool.hfr(["export", input, dir.path("out.mp4"), "--fps", "30", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try Tool.json(r.stdout)["captureFrameRate"] as? String == "120/1")
        #expect(!r.stderr.contains("Note:"), "stderr: \(r.stderr)")
    }

    /// Dropping layers of a stream with B-frames: the file says what it is — 61 frames at 60 fps
    /// last 61/60 s, average rate 60 — and the summary says the same (it said 1.004 s, and the file
    /// 14640/241 fps, from the source decode times kept).
    @Test func layerDropWithBFramesHasEvenTiming() throws {
        let dir = try TemporaryDirectory()
        let input = try CorruptInputs.base("hevc")
        let out = dir.path("fps60.mp4")
        let r = try Tool.hfr(["export", input, out, "--fps", "60", "--reencode", "never", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let frames = try FFprobe.count(out, stream: "v:0", decoding: true)
        #expect(frames == 16)
        #expect(try MediaChecks.entry(out, stream: "v:0", "avg_frame_rate") == "60/1")
        let duration = try MediaChecks.duration(out, stream: "v:0")
        #expect(abs(duration - Double(frames) / 60) < 0.001)
        let json = try Tool.json(r.stdout)
        #expect(abs((json["outputDuration"] as? Double ?? 0) - duration) < 0.001)
        #expect((json["video"] as? [String: Any])?["framesOut"] as? Int == frames)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// Library chatter stays off stderr: Rubber Band at a 100× stretch, OpenH264 refusing a frame
    /// smaller than 16×16 (a clear error instead of its log).
    @Test func libraryLogsStayOffStderr() throws {
        let dir = try TemporaryDirectory()
        let stretched = try Tool.hfr([
            "export", try CorruptInputs.base("plain"), dir.path("slow.mp4"), "--speed", "0.01",
        ])
        #expect(stretched.status == 0, "stderr: \(stretched.stderr)")
        #expect(stretched.stderr.split(separator: "\n").allSatisfy(Self.isOwnLine), "\(stretched.stderr)")

        let tiny = dir.path("tiny.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=8x8:rate=120", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", tiny,
        ])
        let r = try Tool.hfr([
            "export", tiny, dir.path("tiny-out.mp4"), "--fps", "30", "--reencode", "always", "--codec", "openh264",
        ])
        #expect(r.status != 0)
        let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("export: ") }
        #expect(lines.count == 1 && lines.first?.hasPrefix("Error: ") == true, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("OpenH264]"), "stderr: \(r.stderr)")
        #expect(try dir.contents().sorted() == ["slow.mp4", "tiny.mp4"])
    }
}

/// The real files the corrupt inputs are edited from, made once per test process with ffmpeg.
enum CorruptInputs {
    static let directory: TemporaryDirectory? = try? TemporaryDirectory()

    /// 2 s at 120 fps, 320x180 x264 without B-frames, AAC; "tagged" adds com.android.capture.fps.
    static let plain: Result<String, any Error> = Result {
        let path = try #require(directory).path("plain.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x180:rate=120", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
            "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0", "-g", "60", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-shortest", path,
        ])
        return path
    }
    /// The tagged file fragmented: its header lists no frames (they are in the fragments).
    static let fragmented: Result<String, any Error> = Result {
        let path = try #require(directory).path("fragmented.mp4")
        try ExportInputs.ffmpeg([
            "-i", try tagged.get(), "-c", "copy", "-movflags", "+frag_keyframe+empty_moov+use_metadata_tags", path,
        ])
        return path
    }
    /// The same with two B-frames between references (composition offsets in `ctts`).
    static let bframes: Result<String, any Error> = Result {
        let path = try #require(directory).path("bframes.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x180:rate=120", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
            "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-g", "60", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-shortest", path,
        ])
        return path
    }
    static let tagged: Result<String, any Error> = Result {
        let path = try #require(directory).path("tagged.mp4")
        try ExportInputs.ffmpeg([
            "-i", try plain.get(), "-c", "copy", "-metadata", "com.android.capture.fps=120", "-movflags",
            "+use_metadata_tags", path,
        ])
        return path
    }
    /// 61 frames of 240 fps HEVC, two temporal sub-layers, 3 B-frames between P-frames.
    static let hevc: Result<String, any Error> = Result {
        let path = try #require(directory).path("hevc.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=256x144:rate=240", "-frames:v", "61", "-c:v", "libx265",
            "-x265-params",
            "temporal-layers=1:bframes=3:b-adapt=0:b-pyramid=0:keyint=250:min-keyint=250:scenecut=0"
                + ":no-open-gop=1:log-level=error",
            "-tag:v", "hvc1", path,
        ])
        return path
    }

    static func base(_ name: String) throws -> String {
        switch name {
        case "tagged": try tagged.get()
        case "hevc": try hevc.get()
        case "bframes": try bframes.get()
        case "fragmented": try fragmented.get()
        default: try plain.get()
        }
    }
}

extension ExportCorruptInputTests {
    /// hfr's own stderr lines beside notes and errors: progress and the summary.
    static func isOwnLine(_ line: Substring) -> Bool {
        line.hasPrefix("export: ") || line.hasPrefix("Exported ")
    }
}

/// Byte edits of the first box of a type (the video track's, which ffmpeg writes first).
enum MP4Edit {
    /// Offset of the payload of the first box of `type` (after its size and type).
    static func payload(_ data: Data, _ type: String) throws -> Int {
        let range = try #require(data.range(of: Data(type.utf8)), "no \(type) box")
        return range.upperBound
    }

    /// Overwrites `bytes` at `offset` into the payload of the first `type` box.
    static func set(_ data: inout Data, _ type: String, at offset: Int, _ bytes: [UInt8]) throws {
        let start = try payload(data, type) + offset
        data.replaceSubrange(start..<(start + bytes.count), with: bytes)
    }

    /// Zeroes the first two bytes of the AudioSpecificConfig (descriptor tag 5) in the `esds` box.
    static func zeroAudioConfig(_ data: inout Data) throws {
        let p = try payload(data, "esds")
        var at = try #require(data[(p + 4)...].firstIndex(of: 5), "no DecoderSpecificInfo")
        at += 1
        while data[at] & 0x80 != 0 { at += 1 }
        data.replaceSubrange((at + 1)..<(at + 3), with: [0, 0])
    }

    /// Changes the first SPS's picture size from 320x180 (20x12 macroblocks, cropped) to 32x32:
    /// byte 5 of the bases' SPS (67 42 c0 1e da 05 …) holds the start of pic_width_in_mbs_minus1.
    static func shrinkSPSPicture(_ data: inout Data) throws {
        let p = try payload(data, "avcC")
        let sps = p + 8
        try #require(data[sps..<(sps + 6)] == Data([0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x05]), "another SPS")
        data[sps + 5] ^= 0x20
    }

    /// Zeroes the first SPS of the `avcC` box, keeping its length.
    static func zeroSPS(_ data: inout Data) throws {
        let p = try payload(data, "avcC")
        let length = Int(data[p + 6]) << 8 | Int(data[p + 7])
        data.replaceSubrange((p + 8)..<(p + 8 + length), with: [UInt8](repeating: 0, count: length))
    }
}
