/// One client's streaming response (`/stream.mjpg` or `/events`): the part being sent and how far.
///
/// Its memory is bounded: one multipart part (the latest JPEG, copied once with its header) or one
/// event. The server asks for bytes only when the client's socket takes them, so a client that stops
/// reading holds its thread in `send`, not a queue; when it reads again it gets the newest picture.
final class StreamClient {
    enum Kind { case mjpeg, events }

    static let boundary = "hfrpreviewframe"

    let hub: PreviewHub
    let kind: Kind
    private var part: [UInt8] = []
    private var offset = 0
    private var seen = 0

    /// A stream the hub has counted (`PreviewHub.openClient()`); it is uncounted when released.
    init(hub: PreviewHub, kind: Kind) {
        self.hub = hub
        self.kind = kind
    }

    deinit { hub.clientClosed() }

    /// Copies up to `max` bytes of the stream into `buffer`; -1 at the end (the hub closed).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if offset == part.count {
            guard nextPart() else { return -1 }
        }
        let count = min(max, part.count - offset)
        part.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    /// Waits for the next picture or status tick and makes it the part to send; false once closed.
    private func nextPart() -> Bool {
        switch kind {
        case .mjpeg:
            guard let (sequence, jpeg) = hub.picture(after: seen) else { return false }
            seen = sequence
            let header = "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n"
            part = Array(header.utf8) + jpeg + Array("\r\n".utf8)
        case .events:
            // The first event at once, then two a second.
            if seen > 0 { guard hub.pause(0.5) else { return false } }
            seen += 1
            part = Array("data: \(hub.statusDocument().rendered)\n\n".utf8)
        }
        offset = 0
        return true
    }
}
