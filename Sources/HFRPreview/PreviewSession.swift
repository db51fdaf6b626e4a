import Foundation
import HFRMedia
import HFRPipeline

#if canImport(Glibc)
    import Glibc
#endif

/// A running preview: the server, the thread that turns the tap's pictures into JPEG images
/// (scaled, at most `maxFPS` a second) on its own, so the capture never waits for it, and the one
/// that searches the pictures' brightness for flicker twice a second (`FlickerMeter`).
public final class PreviewSession {
    public let tap: PreviewTap
    public let hub: PreviewHub
    public let url: String
    /// Stopped (nil) by `stop()`.
    private var server: PreviewServer?
    private let encoding: StageThread<Void>
    private let metering: StageThread<Void>

    /// Starts serving `settings`' address; `status` gives the live members of `/status`.
    public init(
        settings: PreviewSettings, status: @escaping @Sendable () -> [(String, JSONValue)]
    ) throws(PreviewServerFailure) {
        let hub = PreviewHub(settings: settings, status: status)
        let server = try PreviewServer(hub: hub)
        url = server.url
        self.server = consume server
        self.hub = hub
        // Every picture's brightness is measured as it passes (a few numbers), the search is not.
        let tap = PreviewTap(maxFPS: settings.maxFPS) { [meter = hub.flicker] frame, time in
            meter.add(frame, time: time)
        }
        self.tap = tap
        encoding = Self.startEncoding(tap: tap, hub: hub)
        metering = StageThread(name: "preview-flicker") { [hub] in hub.flicker.run(pausing: hub.pause) }
    }

    deinit { stop() }

    /// Stops serving: every stream ends, the preview's threads are joined, the daemon stopped.
    public func stop() {
        hub.close()
        encoding.join()
        metering.join()
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
