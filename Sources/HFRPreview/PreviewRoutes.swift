import CMicroHTTPD
import Foundation

/// The request handler and the response builders for `PreviewServer`.
enum PreviewRoutes {
    static let paths: Set<String> = ["/", "/stream.mjpg", "/status", "/events"]

    /// libmicrohttpd's access handler: the hub is `cls`.
    static let handler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, _ in
        guard let cls, let connection, let url, let method else { return .NO }
        let hub = Unmanaged<PreviewHub>.fromOpaque(cls).takeUnretainedValue()
        let path = String(cString: url)
        let verb = String(cString: method)
        // Bodies are never read: a request with one is answered at once and its data discarded.
        uploadSize?.pointee = 0
        guard paths.contains(path) else { return text(connection, 404, "not found\n") }
        guard verb == "GET" || verb == "HEAD" else {
            return text(connection, 405, "only GET and HEAD\n", headers: [("Allow", "GET, HEAD")])
        }
        switch path {
        case "/":
            return text(connection, 200, PreviewPage.html, type: "text/html; charset=utf-8")
        case "/status":
            return text(connection, 200, hub.statusDocument().rendered + "\n", type: "application/json")
        case "/stream.mjpg":
            return stream(
                connection, StreamClient(hub: hub, kind: .mjpeg),
                type: "multipart/x-mixed-replace; boundary=\(StreamClient.boundary)")
        default:
            return stream(connection, StreamClient(hub: hub, kind: .events), type: "text/event-stream")
        }
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
