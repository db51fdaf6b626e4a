import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 47 item 1: the preview measures the live picture's flicker, shown in `/status`' `flicker`
/// and on the page, for `hfr preview` and `hfr record --preview` alike.
@Suite(.serialized) struct PreviewFlickerTests {
    /// testsrc2 dimmed to leave headroom (Y·0.75 + 20), then its brightness multiplied by
    /// 1 + 0.15·sin(2π·100·t): eq's contrast c with brightness (c − 1)/2 scales every level by c,
    /// and a gamma off 1 by 10⁻⁶ makes eq use its exact table rather than its fixed-point path (whose
    /// brightness moves in steps of 2.5 levels). Frame means checked with ffmpeg: the gain put in
    /// to 0.3 %. 0.07 s of CPU a second at 240 fps, where geq costs 0.6 s at 160x120.
    static func flickering(rate: Int) -> String {
        "testsrc2=s=320x240:r=\(rate),format=yuv420p,lutyuv=y=val*0.75+20,"
            + "eq=contrast=1+0.15*sin(2*PI*100*t):brightness=0.075*sin(2*PI*100*t):gamma=1.000001:eval=frame"
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

    /// 100 Hz light at 240 fps, and at 120 fps where it aliases to 20 Hz: the frequency within 1 Hz,
    /// the depth within 2 points, no rolling shutter's bands; at 240 fps the page shows it.
    @Test(arguments: [(240, false), (120, true)])
    func aHundredHertzFlickerIsMeasured(rate: Int, recording: Bool) throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Self.start(Self.flickering(rate: rate), rate: rate, recording: recording, port: port, in: dir)
        let status = Self.measured(port, hfr)
        let page = recording ? nil : try Preview.dom("http://127.0.0.1:\(port)/")
        hfr.send(SIGINT)
        let r = hfr.wait()
        #expect(r.status == 0, "\(r.stderr)")
        let flicker = try #require(status?["flicker"] as? [String: Any], "\(status ?? [:])")
        let frequency = try #require(flicker["frequency"] as? Double)
        let depth = try #require(flicker["depth"] as? Double)
        print("PreviewFlickerTests: \(rate) fps\(recording ? " (recording)" : ""): \(flicker)")
        #expect(abs(frequency - 100) <= 1, "\(flicker)")
        #expect(abs(depth - 0.15) <= 0.02, "\(flicker)")
        #expect(flicker["bands"] as? Bool == false, "\(flicker)")
        if let page {
            #expect(page.status == 0, "\(page.stderr)")
            #expect(page.stdout.contains("<td>Flicker</td><td class=\"v\">100 Hz, depth 15 %</td>"), "\(page.stdout)")
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
