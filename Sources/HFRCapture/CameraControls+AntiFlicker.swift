internal import CV4L2
import HFRMedia

extension CameraControls {
    /// `--exposure antiflicker`: the camera's power_line_frequency control where it has one (its
    /// automatic detection when no frequency was given and the menu offers it), otherwise a manual
    /// exposure of whole flicker periods that fits `frameInterval`; set, read back and described.
    /// A camera with neither, or a frame too short for one period, is a warning: capture goes on.
    func apply(
        _ request: AntiFlicker, controls: [V4L2Control], device: V4L2Device, frameInterval: Rational
    ) throws(Failure) -> AntiFlicker.Choice {
        let writable = controls.filter { !$0.isReadOnly && $0.isSimple }
        if let line = writable.first(where: { $0.id == HFR_V4L2_CID_POWER_LINE_FREQUENCY }) {
            // Menu entries: 0 disabled, 1 50 Hz, 2 60 Hz, 3 auto (UVC 1.5).
            let entry: Int64 = request.mains.map { $0 == 60 ? 2 : 1 } ?? (line.maximum >= 3 ? 3 : 1)
            if (line.minimum...line.maximum).contains(entry) {
                try write(line, Int32(entry), device: device)
                return .powerLine(mains: request.mains, set: entry, readBack: try read(line, device: device))
            }
        }
        let mains = request.mains ?? AntiFlicker.assumedMains
        guard let value = writable.first(where: { $0.id == HFR_V4L2_CID_EXPOSURE_ABSOLUTE }) else {
            return .noControl(path: device.path, mains: request.mains)
        }
        let range = AntiFlicker.ExposureRange(
            minimum: value.minimum, maximum: value.maximum, step: Int64(clamping: value.step))
        guard let exposure = AntiFlicker.exposure(mains: mains, frameInterval: frameInterval, range: range) else {
            return .noExposure(
                mains: mains, isAssumed: request.mains == nil, range: range, frameInterval: frameInterval)
        }
        // A fixed exposure holds only in manual mode (V4L2_EXPOSURE_MANUAL).
        if let auto = writable.first(where: { $0.id == HFR_V4L2_CID_EXPOSURE_AUTO }) {
            try write(auto, 1, device: device)
        }
        try write(value, Int32(clamping: exposure.value), device: device)
        return .exposure(
            exposure, mains: mains, isAssumed: request.mains == nil, range: range, frameInterval: frameInterval,
            readBack: try read(value, device: device))
    }
}
