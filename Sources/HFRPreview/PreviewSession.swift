import Foundation
import HFRMedia
import HFRPipeline

#if canImport(Glibc)
    import Glibc
#endif

/// A running preview: the server, and the thread that turns the tap's pictures into JPEG images
/// (scaled, at most `maxFPS` a second) on its own, so the capture never waits for it.
public final class PreviewSession {
    public let tap: PreviewTap
    public let hub: PreviewHub
    public let url: String
    /// Stopped (nil) by `stop()`.
    private var server: PreviewServer?
    private let encoding: StageThread<Void>

    /// Starts serving `settings`' address; `status` gives the live members of `/status`.
    public init(
        settings: PreviewSettings, status: @escaping @Sendable () -> [(String, JSONValue)]
    ) throws(PreviewServerFailure) {
        let hub = PreviewHub(settings: settings, status: status)
        let server = try PreviewServer(hub: hub)
        url = server.url
        self.server = consume server
        self.hub = hub
        let tap = PreviewTap(maxFPS: settings.maxFPS)
        self.tap = tap
        encoding = Self.startEncoding(tap: tap, hub: hub)
    }

    deinit { stop() }

    /// Stops serving: every stream ends, the encoding thread is joined, the daemon stopped.
    public func stop() {
        hub.close()
        encoding.join()
        server = nil
    }

    private static func startEncoding(tap: PreviewTap, hub: PreviewHub) -> StageThread<Void> {
        StageThread(name: "preview") { encode(from: tap, to: hub) }
    }

    /// The preview thread: the latest picture offered, as JPEG, to the hub, until it closes.
    private static func encode(from tap: PreviewTap, to hub: PreviewHub) {
        guard var encoder = try? JPEGEncoder(maxWidth: hub.settings.maxWidth) else { return }
        while !hub.isClosed {
            guard let frame = tap.take() else {
                usleep(4000)
                continue
            }
            // Nobody watching: nothing to encode (the page and the streams pick up the next picture).
            guard hub.clients > 0 else { continue }
            // A picture that does not convert is skipped: the preview never stops the recording.
            if let image = try? encoder.encode(frame) { hub.publish(image) }
        }
    }
}
