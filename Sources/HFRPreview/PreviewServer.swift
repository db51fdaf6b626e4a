import CMicroHTTPD
import Foundation
import HFRPipeline
import HFRSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Why the preview server could not start.
public struct PreviewServerFailure: Error, Sendable {
    public let message: String
    /// The address is taken or not this machine's (the server cannot be had, exit 69).
    public let isUnavailable: Bool
}

/// The preview's HTTP server: GNU libmicrohttpd with a thread per connection, owning the daemon.
///
/// GET (and HEAD) on `/`, `/stream.mjpg`, `/status` and `/events`; other paths 404, other methods
/// 405; requests the library cannot parse get its own 400. With a token (`PreviewSettings.token`)
/// every request without it gets 401 (`PreviewRoutes`).
public struct PreviewServer: ~Copyable {
    private let daemon: OpaquePointer
    private let context: Unmanaged<PreviewHub>
    /// Cuts the connections without the token whose request head is late.
    private let watchdog: StageThread<Void>
    public let hub: PreviewHub

    /// Binds `hub.settings`' address and starts serving.
    public init(hub: PreviewHub) throws(PreviewServerFailure) {
        let settings = hub.settings
        let fd = hfr_listen(settings.host, String(settings.port))
        if fd == -2 {
            throw PreviewServerFailure(message: "cannot resolve '\(settings.host)'", isUnavailable: false)
        }
        if fd < 0 {
            let cause = errno == EADDRINUSE ? "address already in use" : String(cString: strerror(errno))
            throw PreviewServerFailure(
                message: "cannot listen on \(settings.host):\(settings.port): \(cause)", isUnavailable: true)
        }
        if let reason = hfr_microhttpd_load_error() {
            close(fd)
            throw PreviewServerFailure(
                message: "the preview's HTTP server needs libmicrohttpd12: \(String(cString: reason))",
                isUnavailable: true)
        }
        let retained = Unmanaged.passRetained(hub)
        // The gate (held by the hub, which `context` keeps) hears of every connection; the daemon's
        // limit is far above its budget of connections without the token, so the owner's new
        // connection is always accepted.
        let gate = Unmanaged.passUnretained(hub.gate).toOpaque()
        guard
            let d = hfr_mhd_start(
                fd, 128, 30, PreviewRoutes.handler, retained.toOpaque(), PreviewGate.notify, PreviewGate.completed, gate
            )
        else {
            close(fd)
            retained.release()
            throw PreviewServerFailure(message: "cannot start the HTTP server", isUnavailable: true)
        }
        context = retained
        daemon = d
        self.hub = hub
        watchdog = StageThread(name: "preview-gate") { [gate = hub.gate] in gate.watch() }
    }

    deinit {
        hub.close()
        MHD_stop_daemon(daemon)
        hub.gate.stop()
        watchdog.join()
        context.release()
    }

    /// The page's address as a person types it, with the token when there is one.
    public var url: String {
        let host = hub.settings.host.contains(":") ? "[\(hub.settings.host)]" : hub.settings.host
        return "http://\(host):\(hub.settings.port)/" + (hub.settings.token.map { "?token=\($0)" } ?? "")
    }
}
