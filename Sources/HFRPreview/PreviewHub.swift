import Foundation
import HFRMedia
import Synchronization

/// What the server's client threads share: the latest JPEG (each client reads it when it is ready
/// for a frame, so a slow client skips frames and holds at most one), the live status, and the
/// closing signal that ends every stream.
public final class PreviewHub: Sendable {
    /// The latest picture, its number, and whether the hub is closed: waited on by every client.
    private let shared = Locked(Shared())
    struct Shared {
        var jpeg: [UInt8] = []
        var sequence = 0
        var closed = false
    }
    /// The live members of `/status` (the recording's or the camera's), rendered on each request.
    let status: @Sendable () -> [(String, JSONValue)]
    public let settings: PreviewSettings
    /// The live picture's flicker (`/status`' `flicker`).
    public let flicker = FlickerMeter()
    /// Who holds the server's connections (the budget of those without the token).
    let gate = PreviewGate()
    /// Monotonic µs of the last pictures published, for the preview's own fps.
    private let times = Locked<[Double]>([])
    private let clientCount = Atomic<Int>(0)

    public init(settings: PreviewSettings, status: @escaping @Sendable () -> [(String, JSONValue)]) {
        self.settings = settings
        self.status = status
    }

    /// A new picture for every client.
    func publish(_ image: [UInt8]) {
        let now = Date().timeIntervalSince1970
        times.withLock { t in
            t.append(now)
            t.removeAll { $0 < now - 2 }
        }
        shared.withLock { s in
            s.jpeg = image
            s.sequence += 1
        }
    }

    /// Waits for a picture newer than `after`; nil once the hub is closed.
    func picture(after seen: Int) -> (sequence: Int, jpeg: [UInt8])? {
        shared.withLock(when: { $0.closed || $0.sequence > seen }) { s in s.closed ? nil : (s.sequence, s.jpeg) }
    }

    /// Waits `seconds` (less if the hub closes); false once closed.
    func pause(_ seconds: Double) -> Bool {
        !shared.withLock(when: \.closed, timeout: seconds) { $0.closed }
    }

    /// Ends every stream (their clients see the end of the response).
    public func close() { shared.withLock { $0.closed = true } }

    public var isClosed: Bool { shared.withLock { $0.closed } }

    /// Pictures published per second over the last two seconds.
    public var fps: Double {
        let now = Date().timeIntervalSince1970
        return times.withLock { t in Double(t.filter { $0 >= now - 2 }.count) / 2 }
    }

    /// Streams (MJPEG and events) being served now.
    var clients: Int { clientCount.load(ordering: .relaxed) }

    /// Counts one more stream unless `settings.maxStreams` are being served; whether it was counted.
    func openClient() -> Bool {
        var count = clientCount.load(ordering: .relaxed)
        while count < settings.maxStreams {
            let (exchanged, original) = clientCount.compareExchange(
                expected: count, desired: count + 1, ordering: .relaxed)
            if exchanged { return true }
            count = original
        }
        return false
    }
    func clientClosed() { clientCount.subtract(1, ordering: .relaxed) }

    /// The `/status` document: the live members, then the picture's flicker (measured while these
    /// documents are asked for) and the preview's own.
    public func statusDocument() -> JSONValue {
        flicker.want()
        var members = status()
        members.append(("flicker", flicker.json))
        members.append(
            (
                "preview",
                .object([
                    ("fps", .rounded(fps)), ("maxFps", .int(Int64(settings.maxFPS))),
                    ("maxWidth", .int(Int64(settings.maxWidth))),
                    ("clients", .int(Int64(clients))), ("rotation", .int(Int64(settings.rotation))),
                ])
            ))
        return .object(members)
    }
}
