import HFRMedia
import Testing

@testable import HFRPreview

@Suite struct PreviewSettingsTests {
    @Test(arguments: [
        ("8080", "127.0.0.1", 8080), ("0.0.0.0:9000", "0.0.0.0", 9000), ("[::1]:8081", "::1", 8081),
        ("localhost:80", "localhost", 80),
    ])
    func addresses(text: String, host: String, port: Int) throws {
        let s = try #require(PreviewSettings(address: text))
        #expect(s.host == host && s.port == port)
    }

    @Test(arguments: ["", "x", "0", "65536", ":8080", "host:", "8080:x"])
    func badAddresses(text: String) {
        #expect(PreviewSettings(address: text) == nil)
    }

    @Test func loopbackOrNot() {
        #expect(PreviewSettings(address: "8080")!.isLoopback)
        #expect(PreviewSettings(address: "[::1]:1")!.isLoopback)
        #expect(!PreviewSettings(address: "0.0.0.0:1")!.isLoopback)
        #expect(!PreviewSettings(address: "192.0.2.1:1")!.isLoopback)
    }
}

@Suite struct PreviewPictureTests {
    @Test func scaledToAtMost640WideWithEvenSides() {
        #expect(JPEGEncoder.outputSize(width: 1920, height: 1080, maxWidth: 640) == (640, 360))
        #expect(JPEGEncoder.outputSize(width: 1280, height: 720, maxWidth: 640) == (640, 360))
        #expect(JPEGEncoder.outputSize(width: 320, height: 180, maxWidth: 640) == (320, 180))
        #expect(JPEGEncoder.outputSize(width: 1440, height: 1080, maxWidth: 640) == (640, 480))
        #expect(JPEGEncoder.outputSize(width: 1000, height: 999, maxWidth: 640) == (640, 638))
    }

    @Test func encodesAJPEGImage() throws {
        var encoder = try JPEGEncoder()
        let picture = try Frame.picture(width: 1280, height: 720, format: .nv12)
        for _ in 0..<3 {
            let jpeg = try encoder.encode(picture)
            #expect(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
        }
    }

    @Test func statusJSONKeepsOrderAndRoundsLiveFigures() {
        let v = JSONValue.object([
            ("b", .string("a\"b\\c\n")), ("a", .array([.int(1), .null, .bool(true), .rounded(116.60144927536231)])),
            ("fps", .rounded(23.5)),
        ])
        #expect(v.rendered == #"{"b":"a\"b\\c\n","a":[1,null,true,116.601],"fps":23.5}"#)
    }
}
