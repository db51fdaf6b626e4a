import Foundation
import HFRTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41, item 3: strangers cannot lock the owner out of a preview served on the network. 100
/// idle connections without the token held libmicrohttpd's 64 connections, with no timeout, and it
/// reset every other connection — the owner's tokened `GET /status` too; a client sending its
/// request head a byte a second was never timed out; `?token=TOKEN%00` was taken for the token.
@Suite(.serialized) struct PreviewFloodTests {
    /// `hfr preview` on 0.0.0.0 (reached through 127.0.0.1, so the strangers share the owner's
    /// address), a 160x120 test source; its token.
    static func start(in dir: TemporaryDirectory, port: Int) throws -> (BackgroundProcess, token: String) {
        let hfr = try Preview.start(
            ["preview", "--source", "test", "--fps", "30", "--size", "160x120", "--preview", "0.0.0.0:\(port)"], in: dir
        )
        let token = try #require(Preview.token(of: hfr), "\(hfr.stderrSoFar)")
        return (hfr, token)
    }

    /// 20 slow-header clients alone are cut within a few seconds (libmicrohttpd's idle timeout never
    /// fires for them); then, under 200 idle connections and the 20 slow clients, the owner's
    /// tokened `/status` answers within 1 s every time for 60 s, the owner's MJPEG stream and event
    /// stream keep flowing, the server's memory stays flat, and Ctrl-C still ends it.
    @Test func theOwnerIsServedUnderAFloodOfStrangers() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let (hfr, token) = try Self.start(in: dir, port: port)
        defer { if hfr.process.isRunning { hfr.send(SIGKILL) } }
        let pid = hfr.process.processIdentifier

        let slowOnly = ConnectionFlood(port: port, idle: 0, slow: 20)
        slowOnly.start()
        Thread.sleep(forTimeInterval: 9)
        let slow = slowOnly.stop()
        #expect(slow.slowCut >= 20 && slow.longestSlow < 10, "slow clients alone: \(slow)")

        let streams = [
            OwnerStream(port: port, path: "/stream.mjpg", token: token),
            OwnerStream(port: port, path: "/events", token: token),
        ]
        Thread.sleep(forTimeInterval: 2)
        let rssBefore = try #require(Self.residentMemory(of: pid))
        let flood = ConnectionFlood(port: port, idle: 200, slow: 20)
        flood.start()
        var latencies: [Double] = []
        var failures: [String] = []
        let end = ConnectionFlood.now() + 60
        while ConnectionFlood.now() < end {
            let (status, seconds) = Self.ownerRequest(port: port, token: token)
            latencies.append(seconds)
            if status != "200" || seconds >= 1 { failures.append("\(status) after \(seconds) s") }
            Thread.sleep(forTimeInterval: 0.5)
        }
        let rssAfter = try #require(Self.residentMemory(of: pid))
        let cpu = Self.cpuSeconds(of: pid)
        let received = streams.map { $0.bytesInLast(seconds: 5) }
        // Ctrl-C while the strangers still press.
        hfr.send(SIGINT)
        let ended = Self.waitForExit(hfr, timeout: 15)
        let tally = flood.stop()
        for stream in streams { stream.stop() }

        let worst = latencies.max() ?? 0
        print(
            "PreviewFloodTests: \(latencies.count) owner requests, worst \(worst) s; RSS \(rssBefore) → \(rssAfter) KiB; "
                + "flood \(tally); slow alone \(slow); owner streams' bytes in the last 5 s \(received); "
                + "hfr CPU \(cpu.map { String($0) } ?? "?") s")
        #expect(failures.isEmpty, "\(failures.count) of \(latencies.count): \(failures.prefix(10))")
        #expect(latencies.count >= 60)
        #expect(received.allSatisfy { $0 > 0 }, "the owner's streams stalled: \(received)")
        #expect(tally.cut > 200, "the strangers were not cut: \(tally)")
        #expect(tally.longestSlow < 10, "\(tally)")
        #expect(rssAfter < rssBefore + 8 * 1024, "RSS \(rssBefore) → \(rssAfter) KiB")
        #expect(ended == 0, "exit \(String(describing: ended)): \(hfr.stderrSoFar)")
    }

    /// `?token=TOKEN%00` is not the token (the library's lookup stops at the NUL); nor is the token
    /// with a NUL and more after it, in the query, the cookie or the bearer header.
    @Test func aTokenWithANulIsRefused() throws {
        let dir = try TemporaryDirectory()
        let port = Preview.freePort()
        let (hfr, token) = try Self.start(in: dir, port: port)
        defer { if hfr.process.isRunning { hfr.send(SIGKILL) } }
        for query in ["?token=\(token)%00", "?token=\(token)%00x", "?token=\(token)%00\(token)"] {
            #expect(try Preview.request(port, "GET", "/status" + query).status == "401", "\(query)")
        }
        #expect(try Preview.request(port, "GET", "/status?token=\(token)").status == "200")
        hfr.send(SIGINT)
        #expect(hfr.wait().status == 0)
    }

    /// One `GET /status` with the token on a new connection: the status code and the seconds from
    /// connecting to the end of the response ("timeout" after 5 s).
    static func ownerRequest(port: Int, token: String) -> (status: String, seconds: Double) {
        let started = ConnectionFlood.now()
        guard let fd = OwnerStream.connect(port: port, timeout: 5) else {
            return ("refused", ConnectionFlood.now() - started)
        }
        defer { close(fd) }
        let request = Array("GET /status?token=\(token) HTTP/1.1\r\nHost: hfr\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            return ("reset", ConnectionFlood.now() - started)
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 {
                if n < 0 && response.isEmpty {
                    return (errno == EAGAIN ? "timeout" : "reset", ConnectionFlood.now() - started)
                }
                break
            }
            response += buffer[0..<n]
        }
        let line = String(decoding: response.prefix { $0 != 13 }, as: UTF8.self)
        return (
            line.split(separator: " ").dropFirst().first.map(String.init) ?? "empty", ConnectionFlood.now() - started
        )
    }

    /// VmRSS of `pid`, KiB.
    static func residentMemory(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ")[1])
    }

    /// User and system CPU seconds `pid` has used (fields 14 and 15 of /proc/PID/stat, in ticks).
    static func cpuSeconds(of pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The exit status once `process` ends, or nil after `timeout` seconds.
    static func waitForExit(_ process: BackgroundProcess, timeout: Double) -> Int32? {
        let deadline = ConnectionFlood.now() + timeout
        while process.process.isRunning, ConnectionFlood.now() < deadline { usleep(50_000) }
        return process.process.isRunning ? nil : process.process.terminationStatus
    }
}

/// One of the owner's long-lived responses (`/stream.mjpg`, `/events`), read on its own thread.
final class OwnerStream: Sendable {
    private let received = Mutex<[(time: Double, bytes: Int)]>([])
    private let stopped = Mutex(false)

    init(port: Int, path: String, token: String) {
        let thread = Thread { [self] in read(port: port, path: path, token: token) }
        thread.start()
    }

    func stop() { stopped.withLock { $0 = true } }

    /// Bytes received in the last `seconds`.
    func bytesInLast(seconds: Double) -> Int {
        let since = ConnectionFlood.now() - seconds
        return received.withLock { $0.filter { $0.time >= since }.reduce(0) { $0 + $1.bytes } }
    }

    private func read(port: Int, path: String, token: String) {
        guard let fd = Self.connect(port: port, timeout: 1) else { return }
        defer { close(fd) }
        let request = Array("GET \(path)?token=\(token) HTTP/1.1\r\nHost: hfr\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return }
        var buffer = [UInt8](repeating: 0, count: 16384)
        while !stopped.withLock({ $0 }) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 || (n < 0 && errno != EAGAIN) { return }
            if n > 0 { received.withLock { $0.append((ConnectionFlood.now(), n)) } }
        }
    }

    /// A blocking connection to 127.0.0.1:`port` whose sends and receives give up after `timeout` s.
    static func connect(port: Int, timeout: Double) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
