/// How a delivery encoder spends its bits (`hfr export --quality`).
public enum VideoQuality: Sendable, Equatable, CustomStringConvertible {
    /// Constant quality: the encoder's CRF scale (x264/x265 0–51, AV1/VP9 0–63; lower is better).
    case crf(Int)
    /// An average bitrate in bits per second.
    case bitrate(Int64)
    /// Every decoded sample as it was given.
    case lossless

    /// Parses `crf:N`, `bitrate:B` (bits per second; `k`, `M` and `G` multiply by 1000s, as in
    /// `8M`, `2500k`) or `lossless`; nil for anything else.
    public init?(parsing text: String) {
        if text == "lossless" {
            self = .lossless
            return
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "crf":
            guard let n = Int(parts[1]), (0...63).contains(n) else { return nil }
            self = .crf(n)
        case "bitrate":
            guard let bits = VideoQuality.bits(parts[1]), bits >= 1000 else { return nil }
            self = .bitrate(bits)
        default: return nil
        }
    }

    /// `8M` → 8 000 000; nil for malformed or absurd values (above 100 Gbit/s).
    static func bits(_ text: Substring) -> Int64? {
        let scales: [Character: Int64] = ["k": 1000, "K": 1000, "M": 1_000_000, "G": 1_000_000_000]
        var digits = text
        var scale: Int64 = 1
        if let last = text.last, let s = scales[last] {
            scale = s
            digits = text.dropLast()
        }
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        let bits = value * Double(scale)
        guard bits <= 1e11 else { return nil }
        return Int64(bits.rounded())
    }

    public var description: String {
        switch self {
        case .crf(let n): "crf:\(n)"
        case .bitrate(let b): "bitrate:\(b)"
        case .lossless: "lossless"
        }
    }
}
