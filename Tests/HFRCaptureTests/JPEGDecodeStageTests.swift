import Foundation
import HFRMedia
import Testing

@testable import HFRCapture
@testable import HFRPipeline

/// The MJPEG decode stage on JPEGs made by ffmpeg: frames leave in capture order whatever thread
/// decoded them, each with its own picture; truncated and garbage JPEGs are counted as corrupt and
/// leave their slot empty; 4:2:0 pictures reach the encoder as decoded, 4:2:2 ones converted to
/// full-range I420.
@Suite struct JPEGDecodeStageTests {
    static let count = 24
    /// Pictures replaced by corrupt ones: truncated mid-scan, random bytes, random bytes between SOI and EOI.
    static let corrupt: [Int: @Sendable (Data) -> Data] = [
        3: { $0.prefix($0.count / 2) },
        8: { _ in Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }) },
        13: { _ in
            Data([0xFF, 0xD8]) + Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 131) }) + Data([0xFF, 0xD9])
        },
    ]

    /// `count` 160x120 JPEGs of ffmpeg's moving test pattern in `format` (yuvj420p, yuvj422p).
    static func jpegs(_ format: String) throws -> [Data] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hfr-jpeg-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-frames:v", "\(count)",
            "-pix_fmt", format, dir.appendingPathComponent("p%02d.jpg").path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        #expect(ffmpeg.terminationStatus == 0)
        return try (1...count).map { try Data(contentsOf: dir.appendingPathComponent(String(format: "p%02d.jpg", $0))) }
    }

    /// A fingerprint of a picture: its JPEG encoding by hfr's (deterministic) preview encoder.
    static func fingerprint(_ frame: Frame) throws -> [UInt8] {
        var encoder = try JPEGEncoder(maxWidth: 160)
        return try encoder.encode(frame)
    }

    @Test(arguments: ["yuvj420p", "yuvj422p"], [1, 2])
    func framesLeaveInOrderAndCorruptOnesAreCounted(format: String, threads: Int) throws {
        let pictures = try Self.jpegs(format)
        // The reference: each picture decoded and made I420 on its own.
        let reference = try JPEGDecoder(width: 160, height: 120)
        var converter = try PictureConverter(width: 160, height: 120, format: .yuvj420p)
        var expected: [Int64: [UInt8]] = [:]
        for (i, jpeg) in pictures.enumerated() where Self.corrupt[i] == nil {
            let frame = try jpeg.withUnsafeBytes { bytes in try reference.decode(bytes) }
            expected[Int64(i)] = try Self.fingerprint(try converter.ownedI420(#require(frame)))
        }

        let stats = RecordStats()
        stats.captured.store(Self.count, ordering: .relaxed)
        let stage = JPEGDecodeStage(width: 160, height: 120, threads: threads, stats: stats)
        let jpegs = BoundedQueue<JPEGPicture>(capacity: 3)
        let frames = BoundedQueue<Frame>(capacity: 64, producers: threads)
        let decoders = stage.start(from: jpegs, to: frames)
        for (i, jpeg) in pictures.enumerated() {
            let bytes = Self.corrupt[i].map { $0(jpeg) } ?? jpeg
            let packet = try bytes.withUnsafeBytes { bytes in try Packet(copying: bytes) }
            packet.pts = Int64(i)
            #expect(jpegs.push(JPEGPicture(packet: packet, order: i)) == .pushed)
        }
        jpegs.finish()
        var received: [Frame] = []
        while let frame = frames.pop() { received.append(frame) }
        #expect(decoders.allSatisfy { $0.join() == nil })

        #expect(received.map { $0.pts ?? -1 } == expected.keys.sorted())
        // A 4:2:0 JPEG is handed on as decoded, a 4:2:2 one converted; both full range (yuvj420p).
        for frame in received {
            #expect(frame.pixelFormat == .yuvj420p && frame.width == 160 && frame.height == 120)
            #expect(try Self.fingerprint(frame) == expected[frame.pts ?? -1], "picture \(frame.pts ?? -1)")
        }
        #expect(stats.corruptPictures.load(ordering: .relaxed) == Self.corrupt.count)
        #expect(stats.captured.load(ordering: .relaxed) == Self.count - Self.corrupt.count)
    }

    @Test func isWholeNeedsSOIAndEOI() {
        let check = { (bytes: [UInt8]) in bytes.withUnsafeBytes { JPEGDecoder.isWhole($0) } }
        #expect(check([0xFF, 0xD8, 0x00, 0xFF, 0xD9]))
        #expect(check([0xFF, 0xD8, 0x00, 0xFF, 0xD9, 0x00, 0x00]))  // padding after EOI
        #expect(!check([0xFF, 0xD8, 0x00, 0xFF, 0x00, 0x12]))  // truncated: no EOI
        #expect(!check([0x00, 0xD8, 0x00, 0xFF, 0xD9]))  // no SOI
    }
}
