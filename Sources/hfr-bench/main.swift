// hfr-bench: drives hfr's own encode path on raw input, for scripts/bench.
//   hfr-bench encode --input RAW.yuv --size WxH --fps N --layers L --bitrate B --output OUT.h264
//   hfr-bench interpolate --size WxH --method flow|blend ... (Interpolate.swift)
// Reads I420 frames, encodes them with the layered OpenH264 encoder exactly as `hfr record` does,
// writes the Annex B stream.
//   hfr-bench mjpeg --input IN.mjpeg --size WxH --fps N [--decoders D] [--live yes] ...
// The MJPEG camera path from memory: record's decode stage + the encoder (MJPEGBench.swift).
// Not installed for users.

import Foundation
import HFRMedia

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("hfr-bench: \(message)\n".utf8))
    exit(1)
}

var options: [String: String] = [:]
var words = Array(CommandLine.arguments.dropFirst())
if words.first == "interpolate" { exit(runInterpolate(Array(words.dropFirst()))) }
guard let command = words.first, ["encode", "mjpeg"].contains(command) else {
    fail("usage: hfr-bench encode|mjpeg --input F --size WxH --fps N ...")
}
words.removeFirst()
while words.count >= 2 {
    options[String(words[0].dropFirst(2))] = words[1]
    words.removeFirst(2)
}
guard let input = options["input"], let output = options["output"] ?? (command == "mjpeg" ? "" : nil),
    let size = options["size"],
    let fps = options["fps"].flatMap({ Rational(parsing: $0) })
else { fail("missing --input, --output, --size or --fps") }
let dims = size.split(separator: "x").compactMap { Int($0) }
guard dims.count == 2 else { fail("bad --size \(size)") }
let (width, height) = (dims[0], dims[1])
let layers = Int(options["layers"] ?? "3") ?? 3
let bitrate = Int(options["bitrate"] ?? "8000000") ?? 8_000_000
if command == "mjpeg" {
    MJPEGBench(
        input: input, width: width, height: height, fps: fps, layers: layers, bitrate: bitrate,
        decoders: Int(options["decoders"] ?? "") ?? 2, isLive: options["live"] == "yes",
        encoderThreads: Int(options["threads"] ?? "")
            ?? H264Encoder.Settings.defaultThreads(width: width, height: height, frameRate: fps)
    ).run()
    exit(0)
}

do {
    var encoder = try H264Encoder(
        .init(
            width: width, height: height, frameRate: fps, temporalLayers: layers, bitrate: bitrate,
            keyframeInterval: Int(fps.rounded()),
            threads: Int(options["threads"] ?? "")
                ?? H264Encoder.Settings.defaultThreads(width: width, height: height, frameRate: fps)))
    let source = open(input, O_RDONLY)
    guard source >= 0 else { fail("cannot read \(input)") }
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    guard let sink = FileHandle(forWritingAtPath: output) else { fail("cannot write \(output)") }
    sink.write(Data(try encoder.parameterSets()))
    let frameBytes = width * height * 3 / 2
    let packet = try Packet()
    let timeBase = fps.reciprocal
    var index: Int64 = 0
    // One buffer, reused: like a capture ring buffer, no allocation per frame.
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: frameBytes, alignment: 64)
    defer { buffer.deallocate() }
    while true {
        var filled = 0
        while filled < frameBytes {
            let n = read(source, buffer.baseAddress! + filled, frameBytes - filled)
            if n <= 0 { break }
            filled += n
        }
        guard filled == frameBytes else { break }
        // The frame's planes point straight into the buffer: no copy, as a capture frame would be.
        guard
            let frame = try Frame.view(
                of: UnsafeRawBufferPointer(buffer), width: width, height: height, format: .yuv420p)
        else { break }
        _ = try encoder.encode(frame, pts: index, timeBase: timeBase, into: packet)
        packet.withData { sink.write(Data($0)) }
        index += 1
    }
    try sink.close()
    print("\(index) frames")
} catch {
    fail("\(error)")
}
