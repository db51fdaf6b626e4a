import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 27: a preview on a network address has an owner. Served on 0.0.0.0 (reached here through
/// 127.0.0.1), every request needs the random token hfr prints once; the page works with it in
/// Chromium; the stream count is limited; a request fuzz with and without it leaves it serving.
@Suite(.serialized) struct PreviewTokenTests {
    @Test func networkAddressNeedsThePrintedToken() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Preview.start(
            [
                "preview", "--source", "lavfi:" + PreviewTests.barsWithCounter, "--fps", "30", "--size", "1280x720",
                "--preview", "0.0.0.0:\(port)",
            ], in: dir)
        defer { if hfr.process.isRunning { hfr.send(SIGKILL) } }
        let token = try #require(Preview.token(of: hfr), "\(hfr.stderrSoFar)")
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "\(token)")
        // The same length, one digit changed: a wrong token, not a malformed one.
        let wrong = String(token.first == "0" ? "1" : "0") + token.dropFirst()
        let cookie = "hfr_preview_\(port)"

        // Without the token, or with a wrong one in any of its three places: 401 on every path and
        // method, before anything else is looked at.
        var refusals: [String] = []
        for path in ["/", "/stream.mjpg", "/status", "/events", "/favicon.ico"] {
            for method in ["GET", "HEAD", "POST"] {
                for (query, headers) in [
                    ("", []), ("?token=\(wrong)", []), ("?token=", []), ("", ["Cookie: \(cookie)=\(wrong)"]),
                    ("", ["Authorization: Bearer \(wrong)"]), ("", ["Cookie: hfr_preview_1=\(token)"]),
                ] {
                    let r = try Preview.request(port, method, path + query, headers: headers)
                    if r.status != "401" { refusals.append("\(method) \(path)\(query) \(headers): \(r.status)") }
                }
            }
        }
        #expect(refusals.isEmpty, "\(refusals)")

        // With it: the query argument, the cookie the page sets, a bearer header.
        let page = try Preview.request(port, "GET", "/?token=\(token)")
        #expect(page.status == "200" && page.body.contains("<img id=\"picture\""), "\(page.status)")
        #expect(
            page.headers.contains("Set-Cookie: \(cookie)=\(token); Path=/; HttpOnly; SameSite=Strict"),
            "\(page.headers)")
        #expect(page.headers.contains("Referrer-Policy: no-referrer"), "\(page.headers)")
        for headers in [["Cookie: \(cookie)=\(token)"], ["Authorization: Bearer \(token)"]] {
            let status = try Preview.request(port, "GET", "/status", headers: headers)
            #expect(status.status == "200", "\(headers): \(status.status)")
            #expect((try? Tool.json(status.body))?["schema"] as? String == "hfr.preview/1", "\(status.body)")
        }
        let head = try Preview.request(port, "HEAD", "/status?token=\(token)")
        #expect(head.status == "200" && head.body.isEmpty, "\(head)")
        // A request body is refused, token or not in the way.
        let body = try Preview.request(port, "GET", "/status?token=\(token)", headers: ["Content-Length: 5"])
        #expect(body.status == "413", "\(body.status)")

        // Chromium: with the address hfr printed, the picture (the same colour bars as ffmpeg renders
        // them); without the token, no picture and none of the page.
        let shot = try Preview.screenshot("http://127.0.0.1:\(port)/?token=\(token)", to: dir.path("with.png"))
        #expect(shot.status == 0, "\(shot.stderr)")
        let with = try Preview.rgb(dir.path("with.png"), in: dir)
        let box = try #require(PreviewTests.pictureBox(with, width: Preview.window.width))
        #expect(box.width == 640 && box.height == 360, "\(box)")
        let reference = try PreviewTests.barsReference(in: dir)
        for bar in PreviewTests.compareBars(with, width: Preview.window.width, box: box, reference: reference) {
            #expect(bar.points > 0 && bar.mismatches.isEmpty, "bar \(bar.index): \(bar.mismatches.prefix(5))")
        }
        let refused = try Preview.screenshot("http://127.0.0.1:\(port)/", to: dir.path("without.png"))
        #expect(refused.status == 0, "\(refused.stderr)")
        let without = try Preview.rgb(dir.path("without.png"), in: dir)
        // The page's dark background (#111) covers most of the window with the token, none without.
        func darkShare(_ rgb: [UInt8]) -> Double {
            let dark = stride(from: 0, to: rgb.count - 2, by: 3).filter { i in
                (0..<3).allSatisfy { abs(Int(rgb[i + $0]) - 17) < 12 }
            }.count
            return Double(dark) / Double(rgb.count / 3)
        }
        #expect(darkShare(with) > 0.3 && darkShare(without) < 0.01, "\(darkShare(with)) \(darkShare(without))")

        // The streams, with the token: MJPEG pictures flow.
        let readers = try Preview.client(["readers", String(port), "2", "2", token])
        let parts = try Tool.json(readers.stdout)["parts"] as? [Int] ?? []
        #expect(parts.count == 2 && parts.allSatisfy { $0 > 0 }, "\(readers.stdout) \(readers.stderr)")

        // At most 16 streams: the 17th gets 503; once they close, a stream is served again.
        #expect(Preview.waitForStatus(port, token: token, while: hfr) { Self.streams($0) == 0 } != nil)
        let limit = try Tool.json(try Preview.client(["limit", String(port), "16", token]).stdout)
        #expect(limit["opened"] as? [String] == Array(repeating: "200", count: 16), "\(limit)")
        #expect(limit["oneMore"] as? String == "503", "\(limit)")
        #expect(Preview.waitForStatus(port, token: token, while: hfr) { Self.streams($0) == 0 } != nil)
        let again = try Tool.json(try Preview.client(["limit", String(port), "1", token]).stdout)
        #expect(again["opened"] as? [String] == ["200"], "\(again)")

        // 1,000 malformed, oversized and unknown requests without the token, 1,000 with it: only 4xx
        // or a closed connection (the library's own 400/414/431/505 come before the token is read).
        let allowed: Set<String> = ["400", "401", "404", "405", "414", "431", "505", "closed"]
        for withToken in [false, true] {
            let fuzz = try Tool.json(
                try Preview.client(["fuzz", String(port), "1000"] + (withToken ? [token] : [])).stdout)
            let statuses = fuzz["statuses"] as? [String: Int] ?? [:]
            #expect(Set(statuses.keys).isSubset(of: allowed), "\(statuses)")
            #expect(statuses.values.reduce(0, +) == 1000)
            let byKind = fuzz["byKind"] as? [String: [String: Int]] ?? [:]
            #expect(byKind["unknown"] == [withToken ? "404" : "401": 125], "\(byKind)")
            #expect(byKind["method"] == [withToken ? "405" : "401": 125], "\(byKind)")
            print("PreviewTokenTests: fuzz \(withToken ? "with" : "without") the token: \(statuses)")
        }
        #expect(hfr.process.isRunning)
        #expect(try Preview.request(port, "GET", "/status?token=\(token)").status == "200")

        hfr.send(SIGINT)
        let r = hfr.wait()
        #expect(r.status == 0, "\(r.stderr)")
        // Printed once, in the address; the note says what it is for.
        #expect(r.stderr.components(separatedBy: token).count == 2, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(r.stderr)")
        #expect(lines.first?.hasPrefix("Note: the preview is served on the network; every request needs") == true)
        #expect(lines.last == "Preview: http://0.0.0.0:\(port)/?token=\(token)", "\(r.stderr)")
    }

    /// On loopback (the default) no token is asked for or printed.
    @Test func loopbackNeedsNoToken() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let hfr = try Preview.start(
            ["preview", "--source", "test", "--fps", "30", "--size", "320x240", "--preview", String(port)], in: dir)
        let status = try Preview.request(port, "GET", "/status")
        hfr.send(SIGINT)
        let r = hfr.wait()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(status.status == "200")
        #expect(r.stderr == "Preview: http://127.0.0.1:\(port)/\n")
    }

    /// Streams being served, from a `/status` document.
    static func streams(_ status: [String: Any]) -> Int? {
        (status["preview"] as? [String: Any])?["clients"] as? Int
    }
}
