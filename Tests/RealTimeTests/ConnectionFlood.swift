import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Strangers' connections to a preview on loopback, from this process (no token): `idle` ones that
/// send nothing, `slow` ones that send one byte of a request head a second and never finish it.
/// A connection the server cuts is opened again a second later, so the flood presses on as long as
/// it runs. One thread polls them all, which keeps the test's own CPU low.
final class ConnectionFlood: Sendable {
    /// What the flood saw.
    struct Tally: Sendable {
        /// Connections opened and connections the server closed.
        var opened = 0
        var cut = 0
        /// Slow connections the server closed, and the longest any slow connection lived (cut or
        /// still open at the end), seconds.
        var slowCut = 0
        var longestSlow = 0.0
    }

    private struct Client {
        let isSlow: Bool
        var fd: Int32 = -1
        var opened = 0.0
        var reopenAt = 0.0
        var nextByte = 0.0
        var sent = 0
    }

    /// A request head that never ends: a request line, then header lines forever.
    static let head = Array("GET /status HTTP/1.1\r\nHost: hfr\r\n".utf8)
    static let filler = Array("X-Slow: 1\r\n".utf8)

    let port: Int
    private let clients: [Client]
    private let state = Mutex((stopped: false, tally: Tally()))
    /// Signalled by the thread when it has closed its connections.
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, idle: Int, slow: Int) {
        self.port = port
        clients = (0..<(idle + slow)).map { Client(isSlow: $0 >= idle) }
    }

    /// Starts the flood's thread.
    func start() {
        let clients = clients
        let thread = Thread { [self] in
            run(clients)
            done.signal()
        }
        thread.start()
    }

    /// Stops the flood, closes its connections; what it saw.
    func stop() -> Tally {
        state.withLock { $0.stopped = true }
        done.wait()
        return state.withLock { $0.tally }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private func run(_ initial: [Client]) {
        var clients = initial
        while !state.withLock({ $0.stopped }) {
            let now = Self.now()
            for i in clients.indices where clients[i].fd < 0 && now >= clients[i].reopenAt { open(&clients[i], now) }
            let open = clients.indices.filter { clients[$0].fd >= 0 }
            var fds = open.map { pollfd(fd: clients[$0].fd, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            let later = Self.now()
            for (k, i) in open.enumerated() where fds[k].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(clients[i].fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { cut(&clients[i], later) }
            }
            for i in clients.indices where clients[i].isSlow && clients[i].fd >= 0 && later >= clients[i].nextByte {
                sendByte(&clients[i], later)
            }
        }
        let end = Self.now()
        for i in clients.indices where clients[i].fd >= 0 {
            if clients[i].isSlow { note(slowAge: end - clients[i].opened) }
            close(clients[i].fd)
        }
    }

    private func open(_ client: inout Client, _ now: Double) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 || errno == EINPROGRESS else {
            close(fd)
            client.reopenAt = now + 1
            return
        }
        client.fd = fd
        client.opened = now
        client.nextByte = now + 1
        client.sent = 0
        state.withLock { $0.tally.opened += 1 }
    }

    private func cut(_ client: inout Client, _ now: Double) {
        close(client.fd)
        client.fd = -1
        client.reopenAt = now + 1
        let age = now - client.opened
        let isSlow = client.isSlow
        state.withLock { s in
            s.tally.cut += 1
            if isSlow { s.tally.slowCut += 1 }
        }
        if isSlow { note(slowAge: age) }
    }

    private func note(slowAge age: Double) {
        state.withLock { $0.tally.longestSlow = max($0.tally.longestSlow, age) }
    }

    private func sendByte(_ client: inout Client, _ now: Double) {
        let index = client.sent
        let byte =
            index < Self.head.count ? Self.head[index] : Self.filler[(index - Self.head.count) % Self.filler.count]
        var one = byte
        let n = send(client.fd, &one, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        if n == 1 {
            client.sent += 1
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN {
            cut(&client, now)
            return
        }
        client.nextByte = now + 1
    }
}
