import CMicroHTTPD
import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Who holds the preview server's connections, so that clients without the token cannot lock the
/// owner out.
///
/// A connection is *unproven* until a request on it carries the token (any complete request when
/// the preview needs none). Anyone who reaches the port can open unproven connections, so they are
/// held to a budget: one that has not sent a complete request head `headTimeout` seconds after it
/// opened (or after its last request) is cut — a client sending a byte a second keeps
/// libmicrohttpd's idle timeout from ever firing — and when more than `unproven` are open, or more
/// than `unprovenPerAddress` from one address, the oldest is cut (one whose peer has sent nothing
/// first). The daemon's own limit is well
/// above the budget, so it keeps accepting: the owner's new connection is the newest, its request
/// proves it, and a proven connection (the page's picture and figures) is never cut. The cap per
/// address is on unproven connections only: the owner may share a stranger's address (a NAT,
/// loopback), so a cap on all its connections would lock the owner out in turn.
///
/// Cutting is shutdown(2) on the connection's socket, done under the lock that the connection's
/// close notification takes: libmicrohttpd notifies before it closes the socket, so the number
/// cut is still that connection's.
final class PreviewGate: Sendable {
    /// The budget (see the type's summary).
    struct Limits: Sendable {
        var headTimeout = 5.0
        var unproven = 48
        var unprovenPerAddress = 32
    }

    struct Peer {
        let fd: Int32
        let address: String
        /// The order connections opened in: the oldest are cut first.
        let order: Int
        /// When it is cut unless a request head has arrived by then; nil while a request is served.
        var deadline: Double?
        var isProven = false
        var isCut = false

        /// Unproven, not cut yet, and past its deadline.
        func isLate(at now: Double) -> Bool {
            guard let deadline, !isProven, !isCut else { return false }
            return deadline <= now
        }
    }

    struct State {
        var peers: [UInt: Peer] = [:]
        var opened = 0
        var isStopped = false
    }

    let limits: Limits
    private let state = Locked(State())

    init(limits: Limits = Limits()) { self.limits = limits }

    /// A connection opened: noted with its deadline, then the oldest unproven ones over the budget cut.
    func opened(_ key: UInt, fd: Int32, address: String) {
        let now = Self.now()
        state.withLock { s in
            s.opened += 1
            s.peers[key] = Peer(fd: fd, address: address, order: s.opened, deadline: now + limits.headTimeout)
            Self.cutOldest(in: &s, over: limits.unprovenPerAddress) { $0.address == address }
            Self.cutOldest(in: &s, over: limits.unproven) { _ in true }
        }
    }

    /// A request head arrived on the connection; `proven`: it carried the token.
    func headReceived(_ key: UInt, proven: Bool) {
        state.withLock { s in
            s.peers[key]?.deadline = nil
            if proven { s.peers[key]?.isProven = true }
        }
    }

    /// A request on the connection ended: an unproven one has `headTimeout` for its next head.
    func requestCompleted(_ key: UInt) {
        let now = Self.now()
        state.withLock { s in
            guard let peer = s.peers[key], !peer.isProven else { return }
            s.peers[key]?.deadline = now + limits.headTimeout
        }
    }

    /// The connection closed (its socket is closed right after).
    func closed(_ key: UInt) { state.withLock { _ = $0.peers.removeValue(forKey: key) } }

    /// Cuts the unproven connections whose head is late, every half second, until `stop()`.
    func watch() {
        while !state.withLock(when: \.isStopped, timeout: 0.5, { $0.isStopped }) {
            let now = Self.now()
            state.withLock { s in
                for (key, peer) in s.peers where peer.isLate(at: now) { Self.cut(key, in: &s) }
            }
        }
    }

    /// Ends `watch()`.
    func stop() { state.withLock { $0.isStopped = true } }

    /// Cuts the oldest unproven connections that `matches` while more than `limit` are open: first
    /// those whose peer has sent nothing at all. The owner's client sends its request at once, but
    /// its thread may wait for a core between reading it and proving the token; a burst of silent
    /// strangers meanwhile cuts its own kind.
    private static func cutOldest(in s: inout State, over limit: Int, where matches: (Peer) -> Bool) {
        let waiting = s.peers.filter { !$0.value.isProven && !$0.value.isCut && matches($0.value) }
        guard waiting.count > limit else { return }
        let excess = waiting.count - limit
        let oldestFirst = waiting.sorted { $0.value.order < $1.value.order }.map(\.key)
        var silent: [UInt] = []
        var sending: [UInt] = []
        for key in oldestFirst where silent.count < excess {
            if let fd = s.peers[key]?.fd, fd >= 0, hfr_tcp_bytes_received(fd) > 0 {
                sending.append(key)
            } else {
                silent.append(key)
            }
        }
        for key in silent + sending.prefix(excess - silent.count) { cut(key, in: &s) }
    }

    /// Ends the connection: its thread sees the end of its input and closes it.
    private static func cut(_ key: UInt, in s: inout State) {
        guard let fd = s.peers[key]?.fd else { return }
        s.peers[key]?.isCut = true
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

extension PreviewGate {
    /// The key of `connection` in the gate: its address, stable while it is open.
    static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

    /// libmicrohttpd's connection notification: the gate is `cls`.
    static let notify: MHD_NotifyConnectionCallback = { cls, connection, _, code in
        guard let cls, let connection else { return }
        let gate = Unmanaged<PreviewGate>.fromOpaque(cls).takeUnretainedValue()
        guard hfr_mhd_is_opened(code) != 0 else {
            gate.closed(key(connection))
            return
        }
        var buffer = [CChar](repeating: 0, count: 64)
        let known = hfr_mhd_client_address(connection, &buffer, buffer.count) == 0
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let address = known ? String(decoding: bytes, as: UTF8.self) : "?"
        gate.opened(key(connection), fd: hfr_mhd_connection_fd(connection), address: address)
    }

    /// libmicrohttpd's request-completed notification: the gate is `cls`.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, _, _ in
        guard let cls, let connection else { return }
        Unmanaged<PreviewGate>.fromOpaque(cls).takeUnretainedValue().requestCompleted(key(connection))
    }
}
