import Foundation
import HFRMedia
import HFRTestSupport

/// Pictures made by ffmpeg and compared sample by sample.
enum TestPictures {
    /// The first `count` frames of lavfi `source` as yuv420p pictures of `width`×`height`.
    static func frames(_ source: String, width: Int, height: Int, count: Int) throws -> [Frame] {
        let directory = try TemporaryDirectory()
        let raw = directory.path("frames.yuv")
        let r = try Tool.run(
            "ffmpeg",
            ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source, "-frames:v", "\(count)"]
                + ["-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-f", "rawvideo", raw])
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        let size = width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        return try stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
            try bytes[start..<start + size].withUnsafeBytes { buffer in
                guard let view = try Frame.view(of: buffer, width: width, height: height, format: .yuv420p) else {
                    throw CocoaError(.fileReadCorruptFile)
                }
                return try view.copyPicture()
            }
        }
    }

    /// The samples of each plane, row by row without padding.
    static func samples(_ frame: Frame) -> [[UInt8]] {
        (0..<3).map { index in
            let (w, h) = index == 0 ? (frame.width, frame.height) : ((frame.width + 1) / 2, (frame.height + 1) / 2)
            guard let plane = frame.plane(index) else { return [] }
            return (0..<h).flatMap { y in
                Array(UnsafeBufferPointer(start: plane.bytes + y * plane.bytesPerLine, count: w))
            }
        }
    }

    /// PSNR in dB over all samples of the three planes (as ffmpeg's psnr filter's "average").
    static func psnr(_ a: Frame, _ b: Frame) -> Double {
        let (x, y) = (samples(a).flatMap { $0 }, samples(b).flatMap { $0 })
        var sum = 0.0
        for i in x.indices {
            let d = Double(x[i]) - Double(y[i])
            sum += d * d
        }
        let mse = sum / Double(x.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
