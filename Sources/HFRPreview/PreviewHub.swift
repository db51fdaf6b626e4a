import Foundation
import HFRMedia
import Synchronization

/// What the server's client threads share: the latest JPEG (each client reads it when it is ready
/// for a frame, so a slow client skips frames and holds at most one), the live status, and the
/// closing signal that ends every stream.
public final class PreviewHub: @unchecked Sendable {
    /// Guards `jpeg`, `sequence` and `closed`; signalled on each new picture and on close.
    private let condition = NSCondition()
    private var jpeg: [UInt8] = []
    private var sequence = 0
    private var closed = false
    /// The live members of `/status` (the recording's or the camera's), rendered on each request.
    let status: @Sendable () -> [(String, JSONValue)]
    public let settings: PreviewSettings
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
        condition.lock()
        jpeg = image
        sequence += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for a picture newer than `after`; nil once the hub is closed.
    func picture(after seen: Int) -> (sequence: Int, jpeg: [UInt8])? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && sequence <= seen { _ = condition.wait(until: Date().addingTimeInterval(0.5)) }
        return closed ? nil : (sequence, jpeg)
    }

    /// Waits `seconds` (less if the hub closes); false once closed.
    func pause(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !closed && Date() < deadline { _ = condition.wait(until: deadline) }
        return !closed
    }

    /// Ends every stream (their clients see the end of the response).
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

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

    /// The `/status` document: the live members, then the preview's own.
    public func statusDocument() -> JSONValue {
        var members = status()
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
