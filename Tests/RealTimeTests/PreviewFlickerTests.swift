import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 47 item 1: the preview measures the live picture's flicker, shown in `/status`' `flicker`
/// and on the page, for `hfr preview` and `hfr record --preview` alike.
@Suite(.serialized) struct PreviewFlickerTests {
    /// testsrc2 whose brightness is multiplied by 1 + 0.15·sin(2π·100·t) (over 1.15: blend's
    /// multiply scales by at most 1): the gain is a picture two samples wide made by geq and widened,
    /// so geq computes 480 samples a picture instead of 76 800 (0.12 s of CPU a second at 240 fps,
    /// where geq over the picture costs 0.6 s at 160x120). `rolling`: each row is lit as it is read,
    /// a rolling shutter reading the picture over one frame's time (t + y/(h·rate)). The frame means
    /// checked with ffmpeg: the gain put in, to 1 %.
    static func flickering(rate: Int, rolling: Bool = false) -> String {
        let time = rolling ? "T+Y/H/\(rate)" : "T"
        return "testsrc2=s=320x240:r=\(rate),format=yuv420p[picture];"
            + "color=s=2x240:r=\(rate),format=yuv420p,"
            + "geq=lum='255*(1+0.15*sin(2*PI*100*(\(time))))/1.15':cb=128:cr=128,"
            + "scale=320:240:flags=neighbor[light];[picture][light]blend=c0_mode=multiply"
    }

    /// `hfr preview` (or `hfr record --preview`) of `graph` at `rate` fps.
    static func start(_ graph: String, rate: Int, recording: Bool, port: Int, in dir: TemporaryDirectory) throws
        -> BackgroundProcess
    {
        let mode = [
            "--source", "lavfi:" + graph, "--fps", String(rate), "--size", "320x240", "--preview", String(port),
        ]
        let command = recording ? ["record"] + mode + ["--duration", "60", dir.path("r.mp4")] : ["preview"] + mode
        return try Preview.start(command, in: dir)
    }

    /// The first `/status` whose `flicker` is measured (not null): a second of pictures after the
    /// first request.
    static func measured(_ port: Int, _ hfr: BackgroundProcess) -> [String: Any]? {
        Preview.waitForStatus(port, while: hfr, interval: 0.25) { !($0["flicker"] is NSNull) && $0["flicker"] != nil }
    }

    /// The page as Chromium has built it once its figures have come (a Chromium that starts slowly
    /// on a loaded machine may dump it before the first event: asked again, up to three times).
    static func fedPage(_ port: Int) throws -> ToolResult {
        var page = try Preview.dom("http://127.0.0.1:\(port)/")
        for _ in 0..<2 where !page.stdout.contains("<td>Flicker</td>") {
            page = try Preview.dom("http://127.0.0.1:\(port)/")
        }
        return page
    }

    /// 100 Hz light at 240 fps, at 120 fps where it aliases to 20 Hz (recording), and through a
    /// rolling shutter at 240 fps: the frequency within 1 Hz, the depth within 2 points, the bands
    /// only with the rolling shutter; at 240 fps the page shows it.
    @Test(arguments: [(240, false, false), (120, false, true), (240, true, false)])
    func aHundredHertzFlickerIsMeasured(rate: Int, rolling: Bool, recording: Bool) throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Self.start(
            Self.flickering(rate: rate, rolling: rolling), rate: rate, recording: recording, port: port, in: dir)
        let status = Self.measured(port, hfr)
        let page = recording || rolling ? nil : try Self.fedPage(port)
        hfr.send(SIGINT)
        let r = hfr.wait()
        #expect(r.status == 0, "\(r.stderr)")
        let flicker = try #require(status?["flicker"] as? [String: Any], "\(status ?? [:])")
        let frequency = try #require(flicker["frequency"] as? Double)
        let depth = try #require(flicker["depth"] as? Double)
        print("PreviewFlickerTests: \(rate) fps, rolling \(rolling), recording \(recording): \(flicker)")
        #expect(abs(frequency - 100) <= 1, "\(flicker)")
        #expect(abs(depth - 0.15) <= 0.02, "\(flicker)")
        #expect(flicker["bands"] as? Bool == rolling, "\(flicker)")
        if let page {
            #expect(page.status == 0, "\(page.stderr)")
            let figures = page.stdout.range(of: "<table id=\"figures\">").map { page.stdout[$0.lowerBound...] }
            #expect(
                page.stdout.contains("<td>Flicker</td><td class=\"v\">100 Hz, depth 15 %</td>"),
                "\(figures?.prefix(1200) ?? "no figures")")
        }
    }

    /// The same pattern without flicker: "none", and still none half a second of pictures later.
    @Test func aSteadyLightHasNone() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Self.start(
            "testsrc2=s=320x240:r=240,format=yuv420p", rate: 240, recording: false, port: port, in: dir)
        let first = Self.measured(port, hfr)
        let captured = first?["framesCaptured"] as? Int ?? 0
        let later = Preview.waitForStatus(port, while: hfr, interval: 0.25) {
            ($0["framesCaptured"] as? Int ?? 0) > captured + 120
        }
        hfr.send(SIGINT)
        let r = hfr.wait()
        #expect(r.status == 0, "\(r.stderr)")
        print("PreviewFlickerTests: no flicker: \(first?["flicker"] ?? "?"), then \(later?["flicker"] ?? "?")")
        #expect(first?["flicker"] as? String == "none", "\(first ?? [:])")
        #expect(later?["flicker"] as? String == "none", "\(later ?? [:])")
    }
}
