import HFRMedia

extension CaptureSession {
    /// The node `spec` names (a path, a node number or part of a capture device's name), or the first
    /// capture node when `spec` is nil.
    public static func devicePath(_ spec: String?) throws(CaptureError) -> String {
        guard let spec else { return try firstCamera() }
        switch DeviceCatalog.resolve(spec) {
        case .path(let p): return p
        case .noMatch(let available): throw .noSuchDevice(spec: spec, available: available)
        case .ambiguous(let matches): throw .ambiguous(spec: spec, matches: matches)
        }
    }

    /// The first V4L2 capture node in /dev.
    public static func firstCamera() throws(CaptureError) -> String {
        let nodes = DeviceCatalog.videoNodes()
        if let first = nodes.first(where: \.canCapture) { return first.path }
        throw .noCamera(unopenable: nodes.lazy.compactMap(\.failure).first)
    }

    /// Opens the node `spec` names and makes sure it is a streaming capture node (single- or
    /// multi-planar).
    public static func openDevice(_ spec: String?) throws(CaptureError) -> V4L2Device {
        let path = try devicePath(spec)
        let device: V4L2Device
        do {
            device = try V4L2Device(path: path)
        } catch {
            throw .device(error)
        }
        let caps = device.capabilities
        guard caps.canCapture else { throw .notCapture(path: path, kind: caps.kind) }
        guard caps.canStream else { throw .cannotStream(path: path) }
        return device
    }

    /// Every mode of the device, with the asked-for size filled in where the sizes are stepwise.
    static func modes(of device: V4L2Device, including size: (width: Int, height: Int)?) throws(CaptureError)
        -> [V4L2Mode]
    {
        do {
            return try device.formatModes().flatMap { $0.modes(including: size.map { [$0] } ?? [], device: device) }
        } catch {
            throw .device(error)
        }
    }

    /// The mode a session asked for `--fps max` would choose among `modes` (what `hfr formats` marks).
    public static func modeForMaximumRate(among modes: [V4L2Mode]) -> ModeSelector.Choice? {
        try? ModeSelector(modes: modes).select(ModeSelector.Request(rate: nil))
    }

    /// What else reaches the chosen rate, when the driver granted something else than it enumerated.
    static func alternatives(to choice: ModeSelector.Choice, in modes: [V4L2Mode]) -> String {
        let rate = ModeSelector.rateText(choice.rate)
        let reaching = modes.filter { $0.offers(choice.rate) && $0 != choice.mode }
        return reaching.isEmpty
            ? "no other mode offers \(rate) fps"
            : "modes offering \(rate) fps: "
                + reaching.map { "\($0.format.fourCC) \($0.width)x\($0.height)" }.joined(separator: ", ")
    }
}
