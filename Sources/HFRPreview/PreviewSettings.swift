/// How the preview serves: where, how large and how often, and how the page turns the picture.
public struct PreviewSettings: Sendable {
    /// The address to bind (127.0.0.1 unless one is given) and the port.
    public var host: String
    public var port: Int
    /// Pictures are scaled to at most this width…
    public var maxWidth: Int
    /// …and sent at most this often.
    public var maxFPS: Int
    /// Degrees clockwise the page turns the picture (0, 90, 180, 270), as the recording's display matrix.
    public var rotation: Int
    /// What every request must carry (nil: none; `PreviewStart` gives a non-loopback address one).
    public var token: PreviewToken?
    /// Streams (`/stream.mjpg`, `/events`) served at once: a page holds two. One more gets 503.
    public var maxStreams = 16
    /// `POST /trigger` (the page's button): fires a recording's clip; nil when it has no http
    /// trigger. Returns whether it was taken.
    public var trigger: (@Sendable () -> Bool)?

    public init(host: String = "127.0.0.1", port: Int, maxWidth: Int = 640, maxFPS: Int = 30, rotation: Int = 0) {
        self.host = host
        self.port = port
        self.maxWidth = maxWidth
        self.maxFPS = maxFPS
        self.rotation = rotation
    }

    /// `[HOST:]PORT` (`[::1]:8080` for an IPv6 address); nil when it is not one.
    public init?(address: String) {
        var host = "127.0.0.1"
        var portText = Substring(address)
        if let colon = address.lastIndex(of: ":") {
            host = String(address[..<colon])
            portText = address[address.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            if host.isEmpty { return nil }
        }
        guard let port = Int(portText), (1...65535).contains(port) else { return nil }
        self.init(host: host, port: port)
    }

    /// Whether only this machine can reach the address.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The name of the cookie that carries the token: one per port, as cookies are shared by every
    /// port of a host.
    var cookieName: String { "hfr_preview_\(port)" }
}
