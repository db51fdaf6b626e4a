import Foundation

/// Random `hfr export` command lines over the option space (shared by the in-process property test
/// and the end-to-end sample).
public enum ExportOptionSpace {
    /// A command line for `input` (the output named in /tmp: the in-process test writes nothing).
    public static func arguments(_ r: inout SplitMix64, input: String, output: String? = nil) -> [String] {
        let ext = r.pick(["mp4", "mov", "mkv"])
        var a = [input, output.map { "\($0).\(ext)" } ?? "/tmp/hfr-option-space-\(r.below(1000)).\(ext)"]
        switch r.below(4) {
        case 0: a += ["--conform", rate(&r)]
        case 1: a += ["--fps", rate(&r)]
        case 2:
            a += ["--speed", speed(&r)]
            if r.below(2) == 0 { a += ["--fps", rate(&r)] }
        default:
            a += ["--ramp", ramp(&r)]
            if r.below(2) == 0 { a += ["--fps", rate(&r)] }
        }
        if r.below(3) == 0 { a += ["--range", range(&r)] }
        if r.below(3) == 0 { a += ["--interpolate", r.pick(["flow", "blend", "repeat"])] }
        if r.below(2) == 0 { a += ["--audio", r.pick(["spectral", "time-domain", "varispeed", "mute"])] }
        if r.below(4) == 0 { a += ["--reencode", r.pick(["auto", "never", "always"])] }
        // Drawn from a generator of its own, seeded from a copy of `r` (which is not advanced): the
        // other options of every line stay those the seeds gave before --fill-drops existed.
        var peek = r
        var side = SplitMix64(seed: peek.next() ^ 0xF111_D209)
        if side.below(8) == 0 { a += ["--fill-drops", side.pick(["flow", "repeat"])] }
        if side.below(4) == 0 { a += ["--cut-fill", side.pick(["repeat", "crossfade"])] }
        // Half the lines re-encode with the layered OpenH264 (the cheapest encoder), some with a
        // delivery codec named, the rest with the input's family.
        switch side.below(4) {
        case 0, 1: a += ["--codec", "openh264"]
        case 2: a += ["--codec", side.pick(["h264", "hevc", "ffv1", "prores", "vp9", "av1"])]
        default: break
        }
        if side.below(6) == 0 { a += ["--quality", side.pick(["crf:30", "bitrate:500k", "lossless", "crf:99", "x"])] }
        if side.below(8) == 0 { a += ["--shutter", side.pick(["180", "360", "172.8", "0", "400"])] }
        return a
    }

    /// Frame rates as people type them, and as they mistype them.
    static func rate(_ r: inout SplitMix64) -> String {
        switch r.below(7) {
        case 0: return String(1 + r.below(1200))
        case 1: return r.pick(["30000/1001", "24000/1001", "60000/1001", "23.976", "29.97", "59.94", "119.88"])
        case 2: return decimal(&r, whole: r.below(250), digits: 1 + r.below(12))
        case 3: return "\(1 + r.below(100_000))/\(1 + r.below(10_000))"
        case 4: return r.pick(["0.001", "0.012", "5000", "100000", "1e3", "0", "-30", "abc", "30/0", "", "1/3"])
        case 5: return "\(r.below(3)).\(String(repeating: "0", count: r.below(9)))\(1 + r.below(9))"
        default: return String(r.pick([15, 24, 25, 30, 48, 50, 60, 90, 120, 240]))
        }
    }

    static func speed(_ r: inout SplitMix64) -> String {
        switch r.below(5) {
        case 0: return "0." + String(repeating: "0", count: r.below(6)) + String(1 + r.below(99))
        case 1: return "1/\(1 + r.below(20_000))"
        case 2: return decimal(&r, whole: r.below(100), digits: 1 + r.below(10))
        case 3: return r.pick(["0", "-1", "x", "1e-9", "0.0001", "0.0002", "0.001"])
        default: return r.pick(["0.25", "0.5", "0.125", "2", "0.1", "1"])
        }
    }

    /// One to four segments over 0–2.5 s, the last one open or closed.
    static func ramp(_ r: inout SplitMix64) -> String {
        var start = 0.0
        var parts: [String] = []
        for i in 0..<(1 + r.below(4)) {
            let end = start + Double(1 + r.below(12)) / 10
            let last = i == 3 || r.below(3) == 0
            parts.append("\(fixed(start))-\(last && r.below(2) == 0 ? "" : fixed(end))@\(speed(&r))")
            if last { break }
            start = end
        }
        return parts.joined(separator: ",")
    }

    /// Ranges from a small set of boundaries (so the analyses can be shared), some backwards.
    static func range(_ r: inout SplitMix64) -> String {
        let points = ["0", "0.1", "0.5", "0.999", "1", "1.5", "1.999", "2", "3", ""]
        return "\(r.pick(points.dropLast()))-\(r.pick(points))"
    }

    static func decimal(_ r: inout SplitMix64, whole: Int, digits: Int) -> String {
        "\(whole)." + (0..<digits).map { _ in String(r.below(10)) }.joined()
    }

    static func fixed(_ x: Double) -> String { String(format: "%.1f", x) }
}
