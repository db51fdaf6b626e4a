import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension DeviceTests {
    /// `hfr preview` against vivid: the page's status names the granted mode and the gain read back;
    /// `--exposure antiflicker` says the camera has no control for it.
    @Suite struct CameraPreview {
        /// A whole HTTP/1.0 response from the server on loopback `port` (the guest has no curl or python).
        static func get(port: Int, path: String) throws -> (status: String, body: String) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            let request = Array("GET \(path) HTTP/1.0\r\nHost: localhost\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            var data: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                data += buffer[0..<n]
            }
            let text = String(decoding: data, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let status = parts[0].split(separator: " ").dropFirst().first.map(String.init) ?? ""
            return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
        }

        @Test func previewNamesTheGrantedModeAndGain() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            let port = 18480
            let hfr = try BackgroundProcess(
                Tool.hfrPath,
                [
                    "preview", "--device", Guest.camera, "--fps", "max", "--gain", "50", "--exposure", "antiflicker",
                    "--preview", String(port),
                ],
                directory: dir)
            // The anti-flicker warning comes first: wait for the page's address.
            let serving = Date().addingTimeInterval(30)
            while Date() < serving, !hfr.stderrSoFar.contains("Preview: http://") { usleep(50_000) }
            // The status once it counts a captured frame (the emulated guest can take a while).
            let deadline = Date().addingTimeInterval(30)
            var status: (status: String, body: String)
            let page: (status: String, body: String)
            do {
                status = try Self.get(port: port, path: "/status")
                while Date() < deadline, (try? Tool.json(status.body))?["framesCaptured"] as? Int ?? 0 == 0 {
                    usleep(100_000)
                    status = try Self.get(port: port, path: "/status")
                }
                page = try Self.get(port: port, path: "/")
            } catch {
                hfr.send(SIGINT)
                Issue.record("nothing serves port \(port): \(error); hfr said: \(hfr.wait().stderr)")
                return
            }
            // While the preview runs, an independent reader of the driver sees the gain it set.
            let gain = try Tool.run("v4l2-ctl", ["-d", Guest.camera, "-C", "gain"])
            hfr.send(SIGINT)
            let r = hfr.wait()
            #expect(r.status == 0, "\(r.stderr)")
            // vivid has neither power_line_frequency nor exposure_time_absolute: said once, and the preview runs.
            #expect(
                r.stderr.hasPrefix(
                    "Warning: anti-flicker: \(Guest.camera) has neither a power_line_frequency nor an "
                        + "exposure_time_absolute control"), "\(r.stderr)")
            #expect(status.status == "200" && page.status == "200")
            #expect(page.body.contains("src=\"/stream.mjpg\""))
            let json = try Tool.json(status.body)
            #expect(json["schema"] as? String == "hfr.preview/1")
            #expect(json["mode"] as? String == "320x180 YU12 at 60 fps", "\(json)")
            let controls = json["controls"] as? [String: Any] ?? [:]
            #expect(controls["gain"] as? Int == 50, "\(controls)")
            #expect(gain.stdout.contains("gain: 50"), "\(gain.stdout)")
            #expect((json["framesCaptured"] as? Int ?? 0) > 0, "\(json)")
        }
    }
}
