import Foundation
import HFRMedia
import HFRPipeline

/// The MJPEG camera path fed from memory: the JPEGs of a `.mjpeg` file (ffmpeg's concatenated
/// pictures) go through `hfr record`'s decode stage (`decoders` threads) to the layered encoder on
/// its own thread, as a camera's would. Flat out (`isLive` false): how fast the path runs. Live:
/// one picture every 1/fps, dropped when the queue is full as record drops late frames.
/// Prints "pictures N encoded E late L wall S cpu S".
struct MJPEGBench {
    let input: String
    let width: Int
    let height: Int
    let fps: Rational
    let layers: Int
    let bitrate: Int
    let decoders: Int
    let isLive: Bool
    let encoderThreads: Int

    func run() {
        LibavLog.configure(verbosity: 0)  // as hfr record: libav's own messages only with --verbose
        guard let data = FileManager.default.contents(atPath: input) else { fail("cannot read \(input)") }
        let pictures = Self.split(data)
        do {
            let packets = try pictures.map { bytes in try bytes.withUnsafeBytes { raw in try Packet(copying: raw) } }
            let cpuBefore = Self.cpuSeconds()
            let start = Date()
            let (encoded, late) = try record(packets)
            let wall = Date().timeIntervalSince(start)
            print(
                "pictures \(packets.count) encoded \(encoded) late \(late) wall \(wall) cpu \(Self.cpuSeconds() - cpuBefore)"
            )
        } catch {
            fail("\(error)")
        }
    }

    /// Pushes the pictures through decode + encode; frames encoded and pictures dropped late.
    private func record(_ packets: [Packet]) throws -> (Int, Int) {
        let stats = RecordStats()
        let capacity = max(16, min(Int(fps.rounded()) / 2, (192 << 20) / (width * height * 3 / 2)))
        let jpegs = BoundedQueue<JPEGPicture>(capacity: capacity)
        let stage = JPEGDecodeStage(width: width, height: height, threads: decoders, stats: stats)
        let frames = BoundedQueue<Frame>(capacity: capacity, producers: stage.threads)
        let decodeThreads = stage.start(from: jpegs, to: frames)
        var encoder = try H264Encoder(
            .init(
                width: width, height: height, frameRate: fps, temporalLayers: layers, bitrate: bitrate,
                keyframeInterval: Int(fps.rounded()), threads: encoderThreads))
        let encodeThread = StageThread(name: "encode") { [fps] () -> Int in
            let packet = try! Packet()
            var count = 0
            while let frame = frames.pop() {
                _ = try! encoder.encode(frame, pts: frame.pts ?? 0, timeBase: fps.reciprocal, into: packet)
                count += 1
            }
            return count
        }
        var late = 0
        var order = 0
        let start = Clock.monotonicMicroseconds
        for (i, packet) in packets.enumerated() {
            packet.pts = Int64(i)
            if isLive {
                let due = start + (Rational(Int64(i) * 1_000_000) / fps).rounded()
                let wait = due - Clock.monotonicMicroseconds
                if wait > 0 { usleep(UInt32(wait)) }
            }
            switch jpegs.push(JPEGPicture(packet: packet, order: order), policy: isLive ? .dropIfFull : .block) {
            case .pushed: order += 1
            case .dropped: late += 1
            case .cancelled: fail("the decode stage stopped")
            }
        }
        jpegs.finish()
        for thread in decodeThreads { if let failure = thread.join() { fail("\(failure)") } }
        return (encodeThread.join(), late)
    }

    /// The JPEGs of a concatenation: each from its SOI to the EOI before the next SOI.
    static func split(_ data: Data) -> [Data] {
        let bytes = [UInt8](data)
        var pictures: [Data] = []
        var start = 0
        var i = 2
        while i + 3 < bytes.count {
            if bytes[i] == 0xFF, bytes[i + 1] == 0xD9, bytes[i + 2] == 0xFF, bytes[i + 3] == 0xD8 {
                pictures.append(Data(bytes[start..<(i + 2)]))
                start = i + 2
            }
            i += 1
        }
        if start < bytes.count { pictures.append(Data(bytes[start...])) }
        return pictures
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
