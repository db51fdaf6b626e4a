import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--preview` and `hfr preview`: the page in a real browser, MJPEG clients, the bind address, a
/// request fuzz, Ctrl-C.
@Suite(.serialized) struct PreviewTests {
    static let record720p120 = ["record", "--source", "test", "--fps", "120", "--size", "1280x720"]
    /// The same, every frame encoded however loaded the machine is (the encoder is waited for): with
    /// the default `drop`, a busy machine drops late frames with no preview at all.
    static let record720p120EveryFrame = record720p120 + ["--late-frames", "queue"]

    /// The picture's box in a screenshot: where the page's background (#111) gives way, left of the figures.
    static func pictureBox(
        _ rgb: [UInt8], width: Int, column: Int = 300
    ) -> (x: Int, y: Int, width: Int, height: Int)? {
        func isBackground(_ x: Int, _ y: Int) -> Bool {
            let i = (y * width + x) * 3
            return (0..<3).allSatisfy { abs(Int(rgb[i + $0]) - 17) < 12 }
        }
        let height = rgb.count / 3 / width
        guard let top = (0..<height).first(where: { !isBackground(column, $0) }) else { return nil }
        let bottom = (top..<height).first(where: { isBackground(column, $0) }) ?? height
        let row = (top + bottom) / 2
        guard let left = (0..<column).first(where: { !isBackground($0, row) }) else { return nil }
        let right = (column..<width).first(where: { isBackground($0, row) }) ?? width
        return (left, top, right - left, bottom - top)
    }

    /// A test pattern whose every part but a counter is still: PAL colour bars with the test source's
    /// clock and frame counter (testsrc2's top left corner) in the top left, 224x80.
    static let barsWithCounter =
        "pal75bars=size=1280x720:rate=120[bars];"
        + "testsrc2=size=640x360:rate=120,crop=112:40:0:0,scale=224:80[counter];[bars][counter]overlay"

    /// ffmpeg's own rendering of `barsWithCounter`, scaled as the preview scales it (640x360), as RGB.
    static func barsReference(in dir: TemporaryDirectory) throws -> [UInt8] {
        let reference = dir.path("ref.png")
        let made = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", barsWithCounter, "-vf", "scale=640:360", "-frames:v", "1",
                "-y", reference,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return try Preview.rgb(reference, in: dir)
    }

    /// The screenshot `shot` (`width` wide) against `reference` in the picture's `box`: down three
    /// columns of each of the 8 bars, clear of its edges (JPEG blurs them) and of the counter (112x40
    /// here), the pixels checked and those whose colour is not the reference's within JPEG's error.
    static func compareBars(
        _ shot: [UInt8], width: Int, box: (x: Int, y: Int, width: Int, height: Int), reference: [UInt8]
    ) -> [(index: Int, points: Int, mismatches: [String])] {
        let rows = Array(stride(from: box.height / 20, to: box.height * 19 / 20, by: 2))
        return (0..<8).map { bar in
            var points = 0
            var mismatches: [String] = []
            for f in [0.3, 0.5, 0.7] {
                let x = Int((Double(bar) + f) * 640 / 8)
                for y in rows where x >= 112 + 8 || y >= 40 + 8 {
                    let shown = (0..<3).map { Int(shot[((box.y + y) * width + box.x + x) * 3 + $0]) }
                    let expected = (0..<3).map { Int(reference[(y * 640 + x) * 3 + $0]) }
                    points += 1
                    if zip(shown, expected).contains(where: { abs($0 - $1) > 48 }) {
                        mismatches.append("(\(x), \(y)): \(shown), not \(expected)")
                    }
                }
            }
            return (bar, points, mismatches)
        }
    }

    /// Acceptance 1: Chromium shows the test pattern's colour bars, and its counter moves. The pattern
    /// is a filter graph (`--source lavfi:`) still but for its counter, so the screenshot is compared
    /// with ffmpeg's rendering of the same graph pixel for pixel down every bar, whatever the moment
    /// it was taken (`--source test`'s moving line, bar and dots cross any column at random times).
    @Test func browserShowsTheTestPatternLive() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Preview.start(
            [
                "record", "--source", "lavfi:" + Self.barsWithCounter, "--fps", "120", "--size", "1280x720",
                "--duration", "60", "--preview", String(port), dir.path("out.mp4"),
            ], in: dir)
        let first = try Preview.screenshot("http://127.0.0.1:\(port)/", to: dir.path("a.png"))
        // The second screenshot once the source has moved on from any frame the first could show.
        let captured = try Preview.status(port)["framesCaptured"] as? Int ?? 0
        let moved = Preview.waitForStatus(port, while: hfr) { ($0["framesCaptured"] as? Int ?? 0) > captured }
        let second = try Preview.screenshot("http://127.0.0.1:\(port)/", to: dir.path("b.png"))
        hfr.send(SIGINT)
        let recorded = hfr.wait()
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)")
        #expect(moved != nil, "no frame captured after the first screenshot")

        let width = Preview.window.width
        let a = try Preview.rgb(dir.path("a.png"), in: dir)
        let b = try Preview.rgb(dir.path("b.png"), in: dir)
        let box = try #require(Self.pictureBox(a, width: width))
        // 1280x720 scaled to the preview's 640 px.
        #expect(box.width == 640 && box.height == 360, "\(box)")
        let reference = try Self.barsReference(in: dir)
        for bar in Self.compareBars(a, width: width, box: box, reference: reference) {
            #expect(
                bar.points > 0 && bar.mismatches.isEmpty,
                "bar \(bar.index): \(bar.mismatches.count) of \(bar.points): \(bar.mismatches.prefix(5))")
        }
        // The pattern's frame counter (top left of the picture) changed between the screenshots.
        var changed = 0
        for y in box.y..<(box.y + 20) {
            for x in box.x..<(box.x + 56) where a[(y * width + x) * 3] != b[(y * width + x) * 3] { changed += 1 }
        }
        #expect(changed > 20, "\(changed) pixels of the counter changed")
    }

    /// Acceptance 2: three MJPEG readers and one stalled client cost the recording no frame.
    @Test func clientsCostTheRecordingNoFrame() throws {
        let dir = try TemporaryDirectory()
        let plain = try BackgroundProcess(
            Tool.hfrPath, Self.record720p120EveryFrame + ["--frames", "1200", "--json", dir.path("plain.mp4")],
            directory: dir)
        let plainPeak = Preview.peakMemoryUntilExit(plain)
        let plainReport = try Tool.json(plain.wait().stdout)

        let port = Preview.freePort()
        let hfr = try Preview.start(
            Self.record720p120EveryFrame + [
                "--frames", "1200", "--json", "--preview", String(port), dir.path("out.mp4"),
            ],
            in: dir)
        let readers = try BackgroundProcess(
            "/usr/bin/env", ["python3", Preview.script, "readers", String(port), "3", "7"], directory: dir)
        // The figures once the readers and the stalled client are all connected (and pictures flow).
        let served = Preview.waitForStatus(port, while: hfr) { status in
            let preview = status["preview"] as? [String: Any] ?? [:]
            return preview["clients"] as? Int == 4 && (preview["fps"] as? Double ?? 0) > 0
        }
        let status = try served ?? Preview.status(port)
        let previewPeak = Preview.peakMemoryUntilExit(hfr)
        let recorded = hfr.wait()
        let clients = try Tool.json(readers.wait().stdout)
        let report = try Tool.json(recorded.stdout)
        #expect(recorded.status == 0, "\(recorded.stderr)")

        #expect(plainReport["framesEncoded"] as? Int == 1200)
        #expect(report["framesEncoded"] as? Int == plainReport["framesEncoded"] as? Int)
        #expect(report["framesDroppedLate"] as? Int == 0)
        #expect(plainReport["framesDroppedLate"] as? Int == 0)
        let parts = clients["parts"] as? [Int] ?? []
        #expect(parts.count == 3 && parts.allSatisfy { $0 > 0 }, "\(clients)")
        #expect(clients["stalledConnected"] as? Bool == true)
        let preview = status["preview"] as? [String: Any] ?? [:]
        #expect((preview["fps"] as? Double ?? 0) > 0, "\(status)")
        #expect(preview["clients"] as? Int == 4, "\(status)")
        #expect(status["schema"] as? String == "hfr.record/1")
        let without = try #require(plainPeak)
        let with = try #require(previewPeak)
        // Frames waiting for the encoder are the recording's own memory (I420, 1.3 MiB each at 720p):
        // what the preview adds on top is one picture copy, one JPEG per client, its scaler and encoder.
        let queued = (report["maxQueueDepth"] as? Int ?? 0) - (plainReport["maxQueueDepth"] as? Int ?? 0)
        let previewOwn = with - without - max(0, queued) * 1350
        print(
            "PreviewTests: peak RSS \(without / 1024) MiB without preview, \(with / 1024) MiB with 4 clients "
                + "(queue peaks \(plainReport["maxQueueDepth"] ?? "?") and \(report["maxQueueDepth"] ?? "?") frames: "
                + "\(previewOwn / 1024) MiB beyond them); JPEG parts read \(parts), "
                + "preview \(preview["fps"] ?? "?") fps"
        )
        #expect(previewOwn < 48 * 1024, "\(without) KiB → \(with) KiB")
    }

    /// Acceptance 3: loopback only by default; a bounded request fuzz leaves the recording whole.
    @Test func bindsLoopbackAndSurvivesARequestFuzz() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Preview.start(
            Self.record720p120EveryFrame + [
                "--duration", "8", "--json", "--preview", String(port), dir.path("out.mp4"),
            ], in: dir)
        let hex = String(format: "%04X", port)
        let tcp = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8).split(separator: "\n")
        let tcp6 = (try? String(contentsOfFile: "/proc/net/tcp6", encoding: .utf8))?.split(separator: "\n") ?? []
        // Listening sockets (state 0A) on the port: local address field "ADDR:PORT".
        let rows: [[Substring]] = (tcp + tcp6).map { $0.split(separator: " ") }
        let listening: [String] = rows.filter { (fields: [Substring]) -> Bool in
            fields.count > 3 && fields[1].hasSuffix(":" + hex) && fields[3] == "0A"
        }.map { String($0[1]) }
        #expect(listening == ["0100007F:\(hex)"], "\(listening)")

        let fuzz = try Preview.client(["fuzz", String(port), "1000"])
        let result = try Tool.json(fuzz.stdout)
        #expect(hfr.process.isRunning)
        let recorded = hfr.wait()
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let report = try Tool.json(recorded.stdout)
        #expect(report["framesEncoded"] as? Int == 960)
        #expect(report["framesDroppedLate"] as? Int == 0)

        let byKind = result["byKind"] as? [String: [String: Int]] ?? [:]
        #expect(byKind["unknown"] == ["404": 125], "\(byKind)")
        #expect(byKind["method"] == ["405": 125], "\(byKind)")
        // Malformed and oversized requests: libmicrohttpd's own answers (400, 414 URI too long, 431
        // headers too large, 505 version), or it closes the connection; a request line it can still
        // parse reaches our 404/405. Never a 200 or a server error.
        let allowed: Set<String> = ["400", "404", "405", "414", "431", "505", "closed"]
        let statuses = result["statuses"] as? [String: Int] ?? [:]
        #expect(Set(statuses.keys).isSubset(of: allowed), "\(statuses)")
        #expect(statuses.values.reduce(0, +) == 1000)
        print("PreviewTests: fuzz responses \(statuses)")
    }

    /// Acceptance 4: `hfr preview` serves the page and stops with exit 0 on Ctrl-C.
    @Test func previewCommandServesAndStopsOnCtrlC() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Preview.start(
            ["preview", "--source", "test", "--fps", "60", "--size", "640x360", "--preview", String(port)], in: dir)
        let page = try Preview.get(port, "/")
        let status = try Preview.status(port)
        // Nothing to fire here: the trigger belongs to a triggered recording.
        let trigger = try Preview.request(port, "POST", "/trigger")
        hfr.send(SIGINT)
        let r = hfr.wait()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "Preview: http://127.0.0.1:\(port)/\n")
        #expect(page.status == "200" && page.body.contains("<img id=\"picture\" src=\"/stream.mjpg\""))
        #expect(status["mode"] as? String == "640x360 yuv420p at 60 fps", "\(status)")
        #expect((status["framesCaptured"] as? Int ?? 0) > 0)
        #expect(trigger.status == "404" && trigger.body.contains("no http trigger"), "\(trigger)")
    }

    /// Acceptance 5: with `--rotate 90` the page shows the picture turned as players will (portrait),
    /// for `hfr preview` and for a recording's preview alike.
    @Test(arguments: [false, true]) func rotatedPictureIsPortrait(recording: Bool) throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let mode = [
            "--source", "test", "--fps", "60", "--size", "640x360", "--rotate", "90", "--preview", String(port),
        ]
        let command = recording ? ["record"] + mode + ["--duration", "60", dir.path("r.mp4")] : ["preview"] + mode
        let hfr = try Preview.start(command, in: dir)
        let status = try Preview.status(port)
        let shot = try Preview.screenshot("http://127.0.0.1:\(port)/", to: dir.path("p.png"))
        hfr.send(SIGINT)
        let r = hfr.wait()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(shot.status == 0, "\(shot.stderr)")
        #expect((status["preview"] as? [String: Any])?["rotation"] as? Int == 90, "\(status)")
        let box = try #require(
            Self.pictureBox(try Preview.rgb(dir.path("p.png"), in: dir), width: Preview.window.width))
        // 640x360 turned: 360 wide and taller than wide (the 560-pixel window cuts it below 640).
        #expect(box.width == 360 && box.height >= min(640, Preview.window.height - 2 * box.y), "\(box)")
    }

    /// On a phone-sized screen (390x844) the picture is scaled to the width and the figures follow
    /// it on the screen: nothing is cut off on the right.
    @Test func thePageFitsAPhoneScreen() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Preview.start(
            ["preview", "--source", "test", "--fps", "30", "--size", "640x360", "--preview", String(port)], in: dir)
        _ = try Preview.status(port)
        let phone = (width: 390, height: 844)
        let shot = try Preview.screenshot("http://127.0.0.1:\(port)/", to: dir.path("p.png"), window: phone)
        hfr.send(SIGINT)
        _ = hfr.wait()
        #expect(shot.status == 0, "\(shot.stderr)")
        let rgb = try Preview.rgb(dir.path("p.png"), in: dir)
        let box = try #require(Self.pictureBox(rgb, width: phone.width, column: 100))
        // 640x360 within the body's margins: scaled to fit, background beyond its right edge.
        #expect(box.x + box.width < phone.width && box.width >= 340, "\(box)")
        #expect(abs(box.height * 640 - box.width * 360) <= 640 * 2, "\(box)")
        // The figures' text below the picture, on the screen.
        let text = (box.y + box.height + 8..<phone.height).filter { y in
            (0..<phone.width).contains { x in rgb[(y * phone.width + x) * 3] > 150 }
        }
        #expect(text.count > 40, "rows of text below the picture: \(text.count)")
    }

    /// A port in use: one line, exit 69, before anything is captured or written.
    @Test func portInUseIsRefusedBeforeCapture() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let holder = try Preview.start(
            ["preview", "--source", "test", "--fps", "30", "--size", "320x240", "--preview", String(port)], in: dir)
        let r = try Tool.hfr(Self.record720p120 + ["--frames", "10", "--preview", String(port), dir.path("out.mp4")])
        holder.send(SIGINT)
        _ = holder.wait()
        #expect(r.status == 69)
        #expect(r.stderr == "Error: preview: cannot listen on 127.0.0.1:\(port): address already in use\n")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.partial.mp4")))
    }

    /// A `--preview` that is no address is a usage error, before anything starts.
    @Test func badPreviewAddressIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let r = try Tool.hfr(Self.record720p120 + ["--frames", "10", "--preview", "70000", dir.path("out.mp4")])
        #expect(r.status == 64)
        #expect(
            r.stderr.hasPrefix("Error: invalid value '70000' for '--preview': expected [HOST:]PORT, e.g. 8080\n"),
            "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    /// `hfr preview` parses its own options (some shared with `record`) and its errors print its own
    /// usage, not `record`'s.
    @Test(arguments: [
        ["--source", "foo"], ["--source", "lavfi:"], ["--source", "test", "--capture-api", "avdevice"],
        ["--source", "test", "--gain", "3"], ["--source", "test", "--fps", "abc"],
        ["--source", "test", "--size", "1280x720", "--height", "720"], ["--source", "test", "--control", "x"],
    ])
    func badOptionsPrintPreviewsUsage(arguments: [String]) throws {
        let r = try Tool.hfr(["preview"] + arguments)
        #expect(r.status == 64, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 3 && lines[0].hasPrefix("Error: "), "\(r.stderr)")
        #expect(lines.count == 3 && lines[1].hasPrefix("Usage: hfr preview "), "\(r.stderr)")
        #expect(lines.last == "See 'hfr preview --help'", "\(r.stderr)")
        #expect(!r.stderr.contains("record"), "\(r.stderr)")
    }
}
