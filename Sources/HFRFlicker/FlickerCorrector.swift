import Foundation
import HFRMedia

/// Takes a `FlickerModel`'s gain out of pictures, in place: each row of brightness samples divided
/// by the gain at the picture's time and the row's place (a rolling shutter's bands), and, where
/// chroma flickers too, the colour difference scaled back around its middle. 8-bit rows go through
/// a table of the 256 results.
public struct FlickerCorrector: Sendable {
    public let model: FlickerModel

    public init(model: FlickerModel) {
        self.model = model
    }

    /// Corrects `frame` (writable; of a format `levels` describes) shown at real `time`.
    public func correct(_ frame: Frame, levels: SampleLevels, time: Double) {
        var lastGain = Double.nan
        let pivot = model.pivot * Double(levels.maximum)
        let profile = model.profile(at: time)
        var table = [UInt8](repeating: 0, count: 256)
        for plane in levels.brightness {
            guard let (bytes, stride) = frame.plane(plane.index) else { continue }
            for row in 0..<plane.rows {
                let position = (Double(row) + 0.5) / Double(plane.rows)
                let scale = exp(-profile.logGain(at: position))
                let line = bytes + row * stride
                if levels.bytesPerSample == 1 {
                    if scale != lastGain {
                        for v in 0..<256 {
                            table[v] = UInt8(min(255, max(0, (pivot + (Double(v) - pivot) * scale).rounded())))
                        }
                        lastGain = scale
                    }
                    for i in 0..<plane.samplesPerRow { line[i] = table[Int(line[i])] }
                } else {
                    FlickerCorrector.scaleWords(
                        line, plane.samplesPerRow, by: scale, around: Int(pivot.rounded()), max: levels.maximum)
                }
            }
        }
        let chroma = model.chromaLogGain(at: time)
        guard chroma != 0 else { return }
        let scale = exp(-chroma)
        for plane in levels.chroma {
            guard let (bytes, stride) = frame.plane(plane.index) else { continue }
            for row in 0..<plane.rows {
                let line = bytes + row * stride
                if levels.bytesPerSample == 1 {
                    let mid = Double(levels.middle)
                    for i in 0..<plane.samplesPerRow {
                        line[i] = UInt8(min(255, max(0, (mid + (Double(line[i]) - mid) * scale).rounded())))
                    }
                } else {
                    FlickerCorrector.scaleWords(
                        line, plane.samplesPerRow, by: scale, around: levels.middle, max: levels.maximum)
                }
            }
        }
    }

    /// Scales a row of 16-bit little-endian samples around `middle`, clamped to 0…`max`.
    static func scaleWords(
        _ line: UnsafeMutablePointer<UInt8>, _ count: Int, by scale: Double, around middle: Int, max: Int
    ) {
        let raw = UnsafeMutableRawPointer(line)
        let mid = Double(middle)
        for i in 0..<count {
            let v = Double(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
            let scaled = Swift.min(Double(max), Swift.max(0, (mid + (v - mid) * scale).rounded()))
            raw.storeBytes(of: UInt16(scaled).littleEndian, toByteOffset: 2 * i, as: UInt16.self)
        }
    }
}
