import Foundation
import HFRTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Running hfr with a live preview and talking to it: free ports, the Python clients
/// (Tests/PreviewScripts/preview_clients.py), headless Chromium screenshots, pictures as RGB.
enum Preview {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("PreviewScripts/preview_clients.py").path
    /// Opens a page in headless Chromium and clicks a button as a user would (DevTools protocol).
    static let clickScript = URL(fileURLWithPath: script).deletingLastPathComponent()
        .appendingPathComponent("click_button.py").path

    /// A TCP port nothing listens on now (the kernel's pick for port 0 on loopback).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length)
                return getsockname(fd, p, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// hfr with `arguments` in the background, once it has said where the preview is and the
    /// preview's `/status` counts a captured frame (or hfr has ended: the test sees why).
    static func start(_ arguments: [String], in dir: TemporaryDirectory) throws -> BackgroundProcess {
        let process = try BackgroundProcess(Tool.hfrPath, arguments, directory: dir)
        _ = process.waitForOutput(timeout: 10)
        let address = arguments.firstIndex(of: "--preview").map { arguments[$0 + 1] }
        if let port = address?.split(separator: ":").last.flatMap({ Int($0) }) {
            _ = waitForStatus(port, token: token(of: process), while: process) {
                ($0["framesCaptured"] as? Int ?? 0) > 0
            }
        }
        return process
    }

    /// The token in the preview address `process` printed ("Preview: http://…/?token=…"), if any.
    static func token(of process: BackgroundProcess) -> String? {
        let line = process.stderrSoFar.split(separator: "\n").first { $0.hasPrefix("Preview: ") }
        return line?.split(separator: "?token=", maxSplits: 1).dropFirst().first.map(String.init)
    }

    /// Polls the server's `/status` every `interval` seconds until `predicate` holds (up to `timeout`
    /// seconds, and only while `process` runs); the document then, else nil.
    static func waitForStatus(
        _ port: Int, token: String? = nil, while process: BackgroundProcess, timeout: Double = 30,
        interval: Double = 0.05, _ predicate: ([String: Any]) -> Bool
    ) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, process.process.isRunning {
            if let status = try? status(port, token: token), predicate(status) { return status }
            usleep(useconds_t(interval * 1e6))
        }
        return nil
    }

    /// The Python client script with `arguments`.
    static func client(_ arguments: [String]) throws -> ToolResult {
        try Tool.run("python3", [script] + arguments)
    }

    /// `path` of the server on `port`: the status code and the body.
    static func get(_ port: Int, _ path: String) throws -> (status: String, body: String) {
        let r = try client(["get", String(port), path])
        let lines = r.stdout.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let status = lines.first.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" } ?? ""
        return (status, lines.count > 1 ? String(lines[1]) : "")
    }

    /// The server's `/status` document (asked with `token` when given).
    static func status(_ port: Int, token: String? = nil) throws -> [String: Any] {
        try Tool.json(try get(port, "/status" + (token.map { "?token=\($0)" } ?? "")).body)
    }

    /// One request with `headers` (lines "Name: value"): the status code, the header lines, the body.
    static func request(_ port: Int, _ method: String, _ path: String, headers: [String] = []) throws -> (
        status: String, headers: [String], body: String
    ) {
        let r = try client(["request", String(port), method, path] + headers)
        let (head, body) =
            r.stdout.range(of: "\n\n").map { (r.stdout[..<$0.lowerBound], r.stdout[$0.upperBound...]) }
            ?? (Substring(r.stdout), "")
        let lines = head.split(separator: "\n").map(String.init)
        let status = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        return (status, Array(lines.dropFirst()), String(body))
    }

    static let window = (width: 1000, height: 560)

    /// A headless Chromium screenshot of `url` (the page is given 2.5 s to load and run).
    static func screenshot(
        _ url: String, to path: String, window size: (width: Int, height: Int) = window
    ) throws -> ToolResult {
        try Tool.run(
            "chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--window-size=\(size.width),\(size.height)", "--timeout=2500", "--screenshot=\(path)", url,
            ])
    }

    /// The page at `url` as headless Chromium has built it after 2.5 s (its figures filled in by
    /// the first events).
    static func dom(_ url: String) throws -> ToolResult {
        try Tool.run(
            "chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--timeout=2500", "--dump-dom", url])
    }

    /// A picture file as RGB bytes, `width`x`height`, decoded by ffmpeg.
    static func rgb(_ path: String, in dir: TemporaryDirectory) throws -> [UInt8] {
        let raw = dir.path(UUID().uuidString + ".rgb")
        let r = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", raw])
        guard r.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: ["stderr": r.stderr]) }
        defer { try? FileManager.default.removeItem(atPath: raw) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// Peak resident memory (VmHWM, KiB) of process `pid`, while it runs.
    static func peakMemory(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ")[1])
    }

    /// Polls `process`' peak memory until it exits; the last reading.
    static func peakMemoryUntilExit(_ process: BackgroundProcess) -> Int? {
        var peak: Int?
        while process.process.isRunning {
            if let kib = peakMemory(of: process.process.processIdentifier) { peak = kib }
            usleep(100_000)
        }
        return peak
    }
}
