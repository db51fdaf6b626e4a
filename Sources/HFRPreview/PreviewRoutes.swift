import CMicroHTTPD
import Foundation

/// The request handler and the response builders for `PreviewServer`.
enum PreviewRoutes {
    static let paths: Set<String> = ["/", "/stream.mjpg", "/status", "/events", "/trigger"]

    /// libmicrohttpd's access handler: the hub is `cls`.
    ///
    /// In order: the token (401 for every request without it, whatever its path or method, so
    /// nothing is served or told before it), the path (404), the method (405), a body (413: no
    /// path takes one), the stream limit (503).
    static let handler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, _ in
        guard let cls, let connection, let url, let method else { return .NO }
        let hub = Unmanaged<PreviewHub>.fromOpaque(cls).takeUnretainedValue()
        let settings = hub.settings
        let path = String(cString: url)
        let verb = String(cString: method)
        // Bodies are never read: a request with one is answered at once and its data discarded.
        uploadSize?.pointee = 0
        let proven = settings.token.map { carries($0, connection, cookie: settings.cookieName) } ?? true
        hub.gate.headReceived(PreviewGate.key(connection), proven: proven)
        guard proven else {
            // Closed after the answer: a connection without the token is never kept for another request.
            return text(
                connection, 401, "this preview needs its token: open the address hfr printed when it started\n",
                headers: [("WWW-Authenticate", "Bearer realm=\"hfr preview\""), ("Connection", "close")])
        }
        guard paths.contains(path) else { return text(connection, 404, "not found\n") }
        if path == "/trigger" { return trigger(connection, verb: verb, settings: settings) }
        guard verb == "GET" || verb == "HEAD" else {
            return text(connection, 405, "only GET and HEAD\n", headers: [("Allow", "GET, HEAD")])
        }
        guard !declaresBody(connection) else { return text(connection, 413, "a request body is not accepted\n") }
        switch path {
        case "/":
            // The page's picture and figures are fetched without the query: the cookie carries the token.
            let cookie = settings.token.map {
                [("Set-Cookie", "\(settings.cookieName)=\($0); Path=/; HttpOnly; SameSite=Strict")]
            }
            return text(
                connection, 200, PreviewPage.html, type: "text/html; charset=utf-8",
                headers: [("Referrer-Policy", "no-referrer")] + (cookie ?? []))
        case "/status":
            return text(connection, 200, hub.statusDocument().rendered + "\n", type: "application/json")
        default:
            guard hub.openClient() else {
                return text(
                    connection, 503, "too many viewers: \(settings.maxStreams) streams are being served\n",
                    headers: [("Retry-After", "5")])
            }
            if path == "/stream.mjpg" {
                return stream(
                    connection, StreamClient(hub: hub, kind: .mjpeg),
                    type: "multipart/x-mixed-replace; boundary=\(StreamClient.boundary)")
            }
            return stream(connection, StreamClient(hub: hub, kind: .events), type: "text/event-stream")
        }
    }

    /// `POST /trigger`: fires a recording's clip (`--trigger http`). A browser's request from
    /// another site's page is refused (its `Origin` names another host than the request's `Host`),
    /// so a page elsewhere cannot fire it through a viewer's browser.
    static func trigger(_ connection: OpaquePointer, verb: String, settings: PreviewSettings) -> MHD_Result {
        guard verb == "POST" else {
            return text(connection, 405, "only POST\n", headers: [("Allow", "POST")])
        }
        guard !declaresBody(connection) else { return text(connection, 413, "a request body is not accepted\n") }
        if let origin = hfr_mhd_header(connection, "Origin").map({ String(cString: $0) }) {
            let host = hfr_mhd_header(connection, "Host").map { String(cString: $0) } ?? ""
            guard origin == "http://" + host else {
                return text(connection, 403, "a trigger from another site's page is refused\n")
            }
        }
        guard let fire = settings.trigger else {
            return text(connection, 404, "this recording has no http trigger (hfr record --trigger http)\n")
        }
        guard fire() else { return text(connection, 503, "the recording is not taking triggers\n") }
        return text(connection, 200, "triggered\n")
    }

    /// Whether the request carries `token`: as the query argument `token`, the page's cookie, or
    /// `Authorization: Bearer`. Each value is taken whole, with its length: a NUL in it
    /// (`?token=TOKEN%00…`) would end the plain lookup's string and pass for the token.
    static func carries(_ token: PreviewToken, _ connection: OpaquePointer, cookie: String) -> Bool {
        var candidates: [String] = []
        var size = 0
        if let query = hfr_mhd_query_n(connection, "token", &size) { candidates.append(exact(query, size)) }
        if let value = hfr_mhd_cookie_n(connection, cookie, &size) { candidates.append(exact(value, size)) }
        if let header = hfr_mhd_header_n(connection, "Authorization", &size) {
            let fields = exact(header, size).split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2, fields[0].lowercased() == "bearer" { candidates.append(String(fields[1])) }
        }
        return candidates.contains { token.matches($0) }
    }

    /// The `size` bytes at `value`, NULs included.
    static func exact(_ value: UnsafePointer<CChar>, _ size: Int) -> String {
        value.withMemoryRebound(to: UInt8.self, capacity: size) {
            String(decoding: UnsafeBufferPointer(start: $0, count: size), as: UTF8.self)
        }
    }

    /// Whether the request says a body follows (a length above 0, or chunked).
    static func declaresBody(_ connection: OpaquePointer) -> Bool {
        if hfr_mhd_header(connection, "Transfer-Encoding") != nil { return true }
        guard let length = hfr_mhd_header(connection, "Content-Length") else { return false }
        return (Int(String(cString: length).trimmingCharacters(in: .whitespaces)) ?? 1) > 0
    }

    /// A whole response from `body`.
    static func text(
        _ connection: OpaquePointer, _ code: UInt32, _ body: String, type: String = "text/plain; charset=utf-8",
        headers: [(String, String)] = []
    ) -> MHD_Result {
        let bytes = Array(body.utf8)
        guard let response = bytes.withUnsafeBytes({ hfr_mhd_copied_response($0.count, $0.baseAddress) }) else {
            return .NO
        }
        MHD_add_response_header(response, "Content-Type", type)
        MHD_add_response_header(response, "Cache-Control", "no-store")
        for (name, value) in headers { MHD_add_response_header(response, name, value) }
        let result = MHD_queue_response(connection, code, response)
        MHD_destroy_response(response)
        return result
    }

    /// A response without end, read from `client` as the socket takes it.
    static func stream(_ connection: OpaquePointer, _ client: StreamClient, type: String) -> MHD_Result {
        let context = Unmanaged.passRetained(client).toOpaque()
        guard
            let response = MHD_create_response_from_callback(UInt64.max, 32 * 1024, reader, context, release)
        else {
            Unmanaged<StreamClient>.fromOpaque(context).release()
            return .NO
        }
        MHD_add_response_header(response, "Content-Type", type)
        MHD_add_response_header(response, "Cache-Control", "no-store")
        let result = MHD_queue_response(connection, 200, response)
        MHD_destroy_response(response)
        return result
    }

    static let reader: MHD_ContentReaderCallback = { cls, _, buffer, max in
        guard let cls, let buffer else { return -1 }
        return Unmanaged<StreamClient>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
    }

    static let release: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<StreamClient>.fromOpaque(cls).release()
    }
}
