import Foundation
import HFRTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension DeviceTests {
    /// An MJPEG camera from a real kernel driver: v4l2loopback (Debian's source, built for the guest
    /// kernel by scripts/vm/v4l2loopback) at /dev/video10, fed JPEGs made by ffmpeg at 30 fps by a
    /// writer in this process, the way a program feeding a virtual camera does (S_FMT/S_PARM on the
    /// output side, one write() per picture).
    @Suite struct MJPEGLoopback {
        static let node = "/dev/video10"

        @Test func recordsMJPEGAndSkipsCorruptPictures() throws {
            let dir = try TemporaryDirectory()
            // One ffmpeg run: a second of 640x480 pictures as a webcam sends them (4:2:2) and as 4:2:0.
            let made = try Tool.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30:duration=1",
                    "-map", "0", "-pix_fmt", "yuvj422p", "-q:v", "4", dir.path("a%02d.jpg"),
                    "-map", "0", "-pix_fmt", "yuvj420p", "-q:v", "4", dir.path("b%02d.jpg"),
                ])
            #expect(made.status == 0, "\(made.stderr)")
            step("pictures made")
            let load = { (prefix: String) in
                try (1...30).map {
                    try Data(contentsOf: URL(fileURLWithPath: dir.path(String(format: "\(prefix)%02d.jpg", $0))))
                }
            }
            let writer = try LoopbackWriter(node: Self.node, width: 640, height: 480, fps: 30)
            writer.start(pictures: try load("a"))
            defer { writer.stop() }
            step("writer started")

            // What a capture client is told: the writer's format, size and rate.
            let formats = try Tool.hfr(["formats", "--device", Self.node, "--json"])
            #expect(formats.status == 0, "\(formats.stderr)")
            let modes = (try Tool.json(formats.stdout)["formats"] as? [[String: Any]] ?? []).flatMap { f in
                (f["sizes"] as? [[String: Any]] ?? []).flatMap { s in
                    (s["intervals"] as? [[String: Any]] ?? []).map {
                        "\(f["fourcc"]!) \(s["width"]!)x\(s["height"]!) \($0["frameRate"]!)"
                    }
                }
            }
            #expect(modes == ["MJPG 640x480 30/1"], "\(formats.stdout)")

            // 4:2:2 pictures, none corrupt: 150 slots, each a frame in the file or a loss hfr reported
            // (under emulation the guest cannot decode and encode 30 fps: most slots are late drops;
            // on real hardware they are frames).
            step("formats listed")
            let clean = try Self.record(dir.path("clean.mp4"), seconds: 5, in: dir)
            step("clean recording: \(clean)")
            // v4l2loopback lends the reader the writer's own buffers: when the emulated guest falls
            // so far behind that the writer laps it (the sequence gaps counted as device drops), the
            // writer may overwrite a picture hfr is reading, and hfr rightly counts that torn JPEG
            // as corrupt. Without a lap, none may be.
            #expect(clean.corrupt == 0 || clean.corrupt <= clean.dropped, "\(clean)")
            #expect(clean.frames > 0 && abs(clean.slots - 150) <= 2, "\(clean)")
            #expect(clean.decodeErrors.isEmpty, "\(clean.decodeErrors)")
            let probe = try Tool.json(try Tool.hfr(["probe", dir.path("clean.mp4"), "--json"]).stdout)
            let layers = (probe["video"] as? [String: Any])?["layerCount"] as? Int ?? 0
            #expect(layers == 2, "temporal layers: \(layers)")

            // 4:2:0 pictures, and exactly 5 corrupt ones (truncated, random bytes in turn) a third of a
            // second apart from half a second in, so all 5 fall 3 s before the end of its 5 s even when
            // the emulated guest runs the writer late. hfr counts them
            // on the capture thread, so even when the decoders fall behind and pictures are dropped
            // late, none of the 5 goes uncounted. (JPEGs whose damage only the decoder finds:
            // JPEGDecodeStageTests on the host.)
            writer.replace(pictures: try load("b"))
            let hurt = try Self.record(dir.path("corrupt.mp4"), seconds: 5, in: dir) {
                usleep(500_000)
                writer.inject(corrupt: 5, every: 10)
            }
            step("corrupt recording: \(hurt)")
            #expect(writer.injected == 5)
            // A corrupt picture the driver itself skipped (a drop) is not one hfr saw; and as in the
            // clean recording, a lap of the writer (each a device drop) may tear one more picture:
            // 6 corrupt with 2 device drops under TCG beside the host's suites.
            #expect(hurt.corrupt <= 5 + hurt.dropped && hurt.corrupt + hurt.dropped >= 5, "\(hurt)")
            if hurt.dropped == 0 { #expect(hurt.corrupt == 5, "\(hurt)") }
            #expect(hurt.frames > 0 && abs(hurt.slots - 150) <= 2, "\(hurt)")
            #expect(hurt.decodeErrors.isEmpty, "\(hurt.decodeErrors)")
            print("v4l2loopback MJPEG 640x480@30 5 s: clean \(clean); corrupt injected \(hurt); layers \(layers)")
        }

        /// Progress on stderr at once (the suite's own output comes at the end of the test).
        func step(_ text: String) { FileHandle.standardError.write(Data("MJPEGLoopback: \(text)\n".utf8)) }

        struct Recorded: CustomStringConvertible {
            var frames: Int
            var dropped: Int
            var corrupt: Int
            var late: Int
            var decodeErrors: String
            /// Every slot of the recording: a frame in the file, or a picture the device dropped, hfr
            /// dropped late or found corrupt.
            var slots: Int { frames + dropped + late + corrupt }
            var description: String {
                "\(frames) frames, \(dropped) dropped by the device, \(corrupt) corrupt, \(late) late"
            }
        }

        /// `hfr record` of `seconds` at 30 fps from the loopback node, and what ffprobe decodes of it;
        /// `during` runs once the recording has begun (its partial file exists).
        static func record(
            _ out: String, seconds: Int, in dir: TemporaryDirectory, during: () -> Void = {}
        ) throws -> Recorded {
            let hfr = try BackgroundProcess(
                Tool.hfrPath,
                [
                    "record", out, "--device", node, "--pixel-format", "MJPG", "--fps", "30", "--duration",
                    "\(seconds)",
                    "--layers", "2", "--audio", "none", "--json",
                ], directory: dir)
            #expect(Tool.waitForFile(RecordPartial.path(out), timeout: 30))
            during()
            let r = hfr.wait()
            #expect(r.status == 0, "\(r.stderr)")
            let report = try Tool.json(r.stdout)
            #expect(report["sourcePixelFormat"] as? String == "MJPG")
            let probe = try Tool.run(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                    "stream=nb_read_frames,color_range", "-of", "default=nw=1", out,
                ])
            let entries = Dictionary(
                probe.stdout.split(separator: "\n").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
                    .filter { $0.count == 2 }.map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
            // JPEG pictures are full range, and the file says so (else players would stretch the levels).
            #expect(entries["color_range"] == "pc", "\(probe.stdout)")
            return Recorded(
                frames: Int(entries["nb_read_frames"] ?? "") ?? -1,
                dropped: report["framesDroppedByDevice"] as? Int ?? -1, corrupt: report["framesCorrupt"] as? Int ?? -1,
                late: report["framesDroppedLate"] as? Int ?? -1, decodeErrors: probe.stderr)
        }
    }
}

/// Feeds a v4l2loopback node: sets the output format and rate, then writes one picture per frame
/// interval on its own thread (the pictures in turn), optionally replacing every n-th with a
/// corrupt one.
final class LoopbackWriter: @unchecked Sendable {
    private let fd: Int32
    private let interval: Double
    /// The pictures in turn; corrupt ones still to write, every how many pictures, and when next.
    private let state = Mutex<(pictures: [Data], corruptLeft: Int, every: Int, next: Int)>(([], 0, 0, 0))
    /// The picture being written (its number).
    private let written = Atomic<Int>(0)
    /// Corrupt pictures written so far.
    private let corruptWritten = Atomic<Int>(0)
    private let running = Atomic<Bool>(false)
    private var thread: Thread?

    init(node: String, width: Int, height: Int, fps: Int) throws {
        fd = open(node, O_RDWR)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        interval = 1 / Double(fps)
        // struct v4l2_format (208 bytes): type, then v4l2_pix_format at offset 8.
        var format = [UInt32](repeating: 0, count: 52)
        format[0] = 2  // V4L2_BUF_TYPE_VIDEO_OUTPUT
        format[2] = UInt32(width)
        format[3] = UInt32(height)
        format[4] = 0x4750_4A4D  // 'MJPG'
        format[5] = 1  // V4L2_FIELD_NONE
        format[7] = UInt32(width * height * 2)  // sizeimage
        try Self.ioctl(fd, 0xC0D0_5605, &format, "VIDIOC_S_FMT")  // _IOWR('V', 5, struct v4l2_format)
        // struct v4l2_streamparm (204 bytes): type, v4l2_outputparm { capability, outputmode, timeperframe }.
        var parm = [UInt32](repeating: 0, count: 51)
        parm[0] = 2
        parm[3] = 1
        parm[4] = UInt32(fps)
        try Self.ioctl(fd, 0xC0CC_5616, &parm, "VIDIOC_S_PARM")  // _IOWR('V', 22, struct v4l2_streamparm)
    }

    deinit { close(fd) }

    private static func ioctl(_ fd: Int32, _ request: UInt, _ words: inout [UInt32], _ name: String) throws {
        let rc = words.withUnsafeMutableBytes { Glibc.ioctl(fd, request, $0.baseAddress!) }
        #expect(rc == 0, "\(name): errno \(errno)")
    }

    /// Starts writing `pictures` in turn, one per interval, paced by the monotonic clock.
    func start(pictures: [Data]) {
        state.withLock { $0 = (pictures, 0, 0, 0) }
        running.store(true, ordering: .relaxed)
        // The first picture makes the node a capture device (exclusive_caps=1): written before returning.
        write(0)
        let thread = Thread { [self] in run() }
        self.thread = thread
        thread.start()
    }

    func replace(pictures: [Data]) {
        state.withLock { $0.pictures = pictures }
    }

    /// From the next picture on, `count` corrupt ones, `every` pictures apart.
    func inject(corrupt count: Int, every: Int) {
        let next = written.load(ordering: .relaxed) + 1
        state.withLock { $0 = ($0.pictures, count, every, next) }
    }

    /// How many corrupt pictures have been written.
    var injected: Int { corruptWritten.load(ordering: .relaxed) }

    func stop() {
        running.store(false, ordering: .relaxed)
        while thread?.isFinished == false { usleep(10_000) }
    }

    private func run() {
        var next = Date().timeIntervalSince1970 + interval
        var n = 1
        while running.load(ordering: .relaxed) {
            let wait = next - Date().timeIntervalSince1970
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            write(n)
            n += 1
            next += interval
        }
    }

    /// Writes picture `n`: the n-th of the set, or a corrupt one when its turn has come.
    private func write(_ n: Int) {
        written.store(n, ordering: .relaxed)
        let corrupt = state.withLock { s -> Bool in
            guard s.corruptLeft > 0, n >= s.next else { return false }
            s.corruptLeft -= 1
            s.next = n + s.every
            return true
        }
        let pictures = state.withLock { $0.pictures }
        var bytes = pictures[n % pictures.count]
        if corrupt {
            let k = corruptWritten.add(1, ordering: .relaxed).newValue
            var random = SplitMix64(seed: UInt64(n))
            let noise = Data((0..<20_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            // Truncated mid-scan (no EOI), or not a JPEG at all.
            bytes = k % 2 == 0 ? bytes.prefix(bytes.count / 2) : noise
        }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
    }
}
