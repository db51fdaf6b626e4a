import EndToEndSupport
import Foundation
import HFRTestSupport

/// A test pattern lit by mains-powered lamps: the same moving pattern with and without flicker
/// (brightness × 1 + 0.15·sin(2π·100·t), or per row `t + y·line_time` for a rolling shutter),
/// stored losslessly, and the luma of any file of it read back picture by picture.
struct FlickerClip {
    enum Light {
        /// The whole picture at once.
        case global
        /// A rolling shutter that reads the picture out in one frame period.
        case bands
        /// The light steps up by a quarter at 0.5 s, flickering throughout.
        case step
        /// The whole picture at once, the light scaling red, green and blue (so chroma too, and
        /// luma around limited range's black level).
        case rgb
    }

    static let width = 192
    static let height = 128
    let rate: Int
    let clean: String
    let flickering: String

    init(in dir: TemporaryDirectory, rate: Int, light: Light, seconds: Double = 1) throws {
        self.rate = rate
        clean = dir.path("clean\(rate).mp4")
        flickering = dir.path("flicker\(rate).mp4")
        let phase = light == .bands ? "(T+Y/H/\(rate))" : "T"
        let level = light == .step ? "if(lt(T,0.5),0.8,1)" : "1"
        for (path, gain) in [(clean, "1"), (flickering, "(1+0.15*sin(2*PI*100*\(phase)))")] {
            let picture =
                light == .rgb
                ? "format=gbrp,geq="
                    + ["r", "g", "b"].map { "\($0)='(\($0)(X,Y)*0.75+20)*\(gain)'" }.joined(separator: ":")
                    + ",format=yuv420p"
                : "format=yuv420p,geq=lum='(lum(X,Y)*0.75+20)*\(level)*\(gain)':cb='cb(X,Y)':cr='cr(X,Y)'"
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=s=\(Self.width)x\(Self.height):r=\(rate):d=\(seconds),\(picture)",
                "-c:v", "libx264", "-qp", "0", "-video_track_timescale", String(rate), path,
            ])
        }
    }

    /// Every picture's luma, in order.
    static func luma(_ path: String, in dir: TemporaryDirectory) throws -> [[UInt8]] {
        let raw = dir.path(UUID().uuidString + ".y")
        try ExportInputs.ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "gray", raw])
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let size = width * height
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<$0 + size]) }
    }

    /// Each picture's mean luma.
    static func means(_ pictures: [[UInt8]]) -> [Double] {
        pictures.map { p in Double(p.reduce(0) { $0 + Int($1) }) / Double(p.count) }
    }

    /// Each picture's row means.
    static func rows(_ picture: [UInt8]) -> [Double] {
        (0..<height).map { y in Double(picture[y * width..<(y + 1) * width].reduce(0) { $0 + Int($1) }) / Double(width)
        }
    }

    /// The amplitude of `series` (one value per picture at `rate`) at `hz` (aliased as sampled).
    static func amplitude(_ series: [Double], hz: Double, rate: Int) -> Double {
        let mean = series.reduce(0, +) / Double(series.count)
        var re = 0.0
        var im = 0.0
        for (i, v) in series.enumerated() {
            let x = 2 * Double.pi * hz * Double(i) / Double(rate)
            re += (v - mean) * cos(x)
            im += (v - mean) * sin(x)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(series.count)
    }

    /// Luma PSNR of `a`'s pictures against `b`'s.
    static func psnr(_ a: [[UInt8]], _ b: [[UInt8]]) -> Double {
        var sum = 0.0
        var n = 0
        for (p, q) in zip(a, b) {
            for (x, y) in zip(p, q) {
                let d = Double(x) - Double(y)
                sum += d * d
            }
            n += p.count
        }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(n)))
    }

    /// RMS over pictures and rows of the row means' difference from `reference`'s.
    static func rowResidual(_ a: [[UInt8]], _ reference: [[UInt8]]) -> Double {
        var sum = 0.0
        var n = 0
        for (p, q) in zip(a, reference) {
            for (x, y) in zip(rows(p), rows(q)) {
                sum += (x - y) * (x - y)
                n += 1
            }
        }
        return (sum / Double(max(n, 1))).squareRoot()
    }
}
