import HFRMedia

/// `hfr export --codec`: the codec a re-encode writes, through a delivery encoder of libavcodec,
/// or `openh264`, hfr's layered encoder that `hfr record` uses (temporal layers, fixed bitrate).
public enum OutputCodec: String, Sendable, CaseIterable {
    case h264, hevc, av1, vp9, prores, ffv1, openh264

    /// The source codec's family (libavcodec's name): its own where hfr has an encoder for it,
    /// VP9 for VP8, else H.264.
    static func family(ofSource name: String) -> OutputCodec {
        switch name {
        case "hevc": .hevc
        case "av1": .av1
        case "vp9", "vp8": .vp9
        case "prores": .prores
        case "ffv1": .ffv1
        default: .h264
        }
    }

    /// Whether a stream of libavcodec's codec `name` is already this codec (a copy keeps it).
    func isCodec(_ name: String) -> Bool { name == codecName }

    /// libavcodec's name of the codec it writes ("h264" for OpenH264).
    var codecName: String { self == .openh264 ? "h264" : rawValue }

    /// The one sentence for `--codec` naming a codec `container` (`output`'s) cannot hold, naming
    /// the containers that can; nil when it holds it.
    func clash(with container: Container, output: String) -> String? {
        guard !container.holds(codecNamed: codecName) else { return nil }
        return "--codec \(rawValue): \(displayName) video cannot be written to \(container.displayName) (\(output)); "
            + "use \(Container.listedExtensions(holding: codecName))"
    }

    /// The one sentence for a `--quality` this codec's encoders cannot take (`refusal(of:)`, or
    /// beyond every encoder's limits: the first's are named); nil when one of them takes it.
    func qualityClash(_ quality: VideoQuality) -> String? {
        if let why = refusal(of: quality) { return "--quality \(quality): \(why)" }
        let all = encoders(quality: nil)
        guard encoders(quality: quality).isEmpty, let first = all.first,
            let why = Encoder.refusal(of: quality, by: first)
        else { return nil }
        return "--quality \(quality): \(displayName) (\(first)) \(why)"
    }

    /// The display name for messages ("H.264", "ProRes").
    var displayName: String {
        switch self {
        case .h264: "H.264"
        case .hevc: "HEVC"
        case .av1: "AV1"
        case .vp9: "VP9"
        case .prores: "ProRes"
        case .ffv1: "FFV1"
        case .openh264: "H.264 (OpenH264, layered)"
        }
    }

    /// The libavcodec encoders that write it and take `quality` (`Encoder.refusal(of:by:)`), best
    /// first: the first that takes the pictures as they are wins (SVT-AV1 reads 4:2:0 up to 10 bits
    /// only and has no lossless mode).
    func encoders(quality: VideoQuality?) -> [String] {
        let names: [String] =
            switch self {
            case .h264: ["libx264"]
            case .hevc: ["libx265"]
            case .av1: ["libsvtav1", "libaom-av1"]
            case .vp9: ["libvpx-vp9"]
            case .prores: ["prores_ks"]
            case .ffv1: ["ffv1"]
            case .openh264: []
            }
        return names.filter { name in
            Encoder.exists(name) && (quality.map { Encoder.refusal(of: $0, by: name) == nil } ?? true)
        }
    }

    /// The quality a delivery encode uses unless `--quality` says: visually lossless constant
    /// quality on each encoder's scale; nil where the encoder has its own rule (ProRes by profile,
    /// FFV1 always lossless).
    var defaultQuality: VideoQuality? {
        switch self {
        case .h264: .crf(18)
        case .hevc: .crf(20)
        case .av1: .crf(30)
        case .vp9: .crf(24)
        case .prores, .ffv1, .openh264: nil
        }
    }

    /// Why `quality` does not apply to this codec; nil when it does.
    func refusal(of quality: VideoQuality) -> String? {
        switch (self, quality) {
        case (.ffv1, .lossless), (.openh264, .bitrate): nil
        case (.ffv1, _): "FFV1 is lossless only: give --quality lossless or leave it out"
        case (.prores, _): "ProRes sets its quality by profile (422 HQ, 4444 for 4:4:4 pictures): leave --quality out"
        case (.openh264, _): "OpenH264 (layered) takes --quality bitrate:B only"
        default: nil
        }
    }
}
