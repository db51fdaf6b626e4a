import HFRMedia

/// What a capture session was granted: the one report of the mode a source delivers, for the
/// record report, the preview page and messages.
public struct CaptureGrant: Sendable, Equatable {
    /// The source, with a camera's `--device` resolved to its node's path.
    public var source: CaptureSource
    public var width: Int
    public var height: Int
    /// Frames per second, exact (a camera's: the interval the driver read back).
    public var rate: Rational
    /// A camera's FourCC (YU12, YUYV, MJPG …); a generated source's FFmpeg pixel format once it
    /// is started (nil before: FFmpeg names it when the graph runs).
    public var pixelFormat: String?
    /// A camera's name (VIDIOC_QUERYCAP's card); nil for generated sources.
    public var card: String?
    /// Which code reads a camera; nil for generated sources.
    public var api: CaptureAPI?
    /// What applying the camera controls warned of (automatic exposure that can lengthen frames).
    public var warnings: [String] = []
    /// What `--exposure antiflicker` chose, set and read back; nil when it was not asked.
    public var antiFlicker: AntiFlicker.Choice?
    /// The controls the request set, and gain, exposure, focus and white balance, as the driver
    /// reads them back after they were applied.
    public var controls: [ControlReading] = []

    /// One control's value as read back from the driver.
    public struct ControlReading: Sendable, Equatable {
        public var key: String
        public var value: Int64
    }

    /// `1280x720 YU12 at 120 fps`: the mode in one phrase.
    public var summary: String {
        "\(width)x\(height) \(pixelFormat ?? "?") at \(ModeSelector.rateText(rate)) fps"
    }
}

extension CaptureGrant {
    /// What setting the camera up says on stderr, record and preview alike: each warning, then
    /// what `--exposure antiflicker` chose.
    public var setupLines: [String] {
        warnings.map { "Warning: \($0)" } + (antiFlicker.map { [$0.line] } ?? [])
    }

    /// The control families every camera report shows, beside the ones a request sets by name.
    static let reportedFamilies = ["gain", "exposure", "focus", "white_balance", "power_line_frequency"]

    /// `device`'s simple controls that `asked` names or that belong to `reportedFamilies`, read back.
    static func readings(_ device: V4L2Device, asked: CameraControls) -> [ControlReading] {
        let named = Set(asked.named.map(\.key))
        guard let all = try? device.controls() else { return [] }
        return all.filter { c in
            c.isSimple && (named.contains(c.key) || reportedFamilies.contains { c.key.contains($0) })
        }.compactMap { c in (try? device.value(of: c)).map { ControlReading(key: c.key, value: Int64($0)) } }
    }
}
