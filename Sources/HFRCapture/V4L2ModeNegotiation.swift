internal import CV4L2
import HFRMedia

/// Sets a mode and reads back what the driver granted ("the driver negotiates", as OBS's
/// `linux-v4l2` puts it): format, size and interval are set together, then G_FMT and G_PARM say
/// what holds; any difference from what was asked is a failure, never a silent fallback.
enum V4L2ModeNegotiation {
    /// Sets `choice` on `device` and returns the granted mode; throws `isModeNotGranted` when the
    /// driver holds another one.
    static func negotiate(_ choice: ModeSelector.Choice, on device: V4L2Device) throws(V4L2Failure)
        -> V4L2Capture.Granted
    {
        var (format, parm) = try set(choice, on: device)
        // Read back both: S_PARM may change with the format and drivers adjust silently.
        try device.ioctl(.gFmt, &format)
        try device.ioctl(.gParm, &parm)
        let granted = grantedMode(format, interval: parm.parm.capture.timeperframe, on: device)
        try check(granted, against: choice, path: device.path)
        return granted
    }

    /// The mode a read-back format and interval stand for: `pix`, or on a multi-planar node
    /// `pix_mp` with each plane's stride.
    private static func grantedMode(_ format: v4l2_format, interval: v4l2_fract, on device: V4L2Device)
        -> V4L2Capture.Granted
    {
        let exact = V4L2FrameInterval.interval(interval)
        guard device.capabilities.isMultiplanar else {
            let pix = format.fmt.pix
            return V4L2Capture.Granted(
                format: V4L2PixelFormat(code: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                bytesPerLine: Int(pix.bytesperline), interval: exact)
        }
        let mp = format.fmt.pix_mp
        let count = min(Int(mp.num_planes), Int(VIDEO_MAX_PLANES))
        let strides = withUnsafeBytes(of: mp.plane_fmt) { raw in
            raw.bindMemory(to: v4l2_plane_pix_format.self).prefix(count).map { Int($0.bytesperline) }
        }
        return V4L2Capture.Granted(
            format: V4L2PixelFormat(code: mp.pixelformat), width: Int(mp.width), height: Int(mp.height),
            bytesPerLine: strides.first ?? 0, interval: exact, planeBytesPerLine: strides)
    }

    /// VIDIOC_S_FMT then VIDIOC_S_PARM; returns the structures as set, for reading back into.
    private static func set(_ choice: ModeSelector.Choice, on device: V4L2Device) throws(V4L2Failure)
        -> (v4l2_format, v4l2_streamparm)
    {
        let mode = choice.mode
        var format = v4l2_format()
        format.type = device.bufferType
        if device.capabilities.isMultiplanar {
            // The driver fills in num_planes and each plane's layout.
            format.fmt.pix_mp.width = UInt32(mode.width)
            format.fmt.pix_mp.height = UInt32(mode.height)
            format.fmt.pix_mp.pixelformat = mode.format.code
            format.fmt.pix_mp.field = V4L2_FIELD_NONE.rawValue
        } else {
            format.fmt.pix.width = UInt32(mode.width)
            format.fmt.pix.height = UInt32(mode.height)
            format.fmt.pix.pixelformat = mode.format.code
            format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        }
        try device.ioctl(.sFmt, &format)
        var parm = v4l2_streamparm()
        parm.type = device.bufferType
        parm.parm.capture.timeperframe = v4l2_fract(
            numerator: UInt32(choice.rate.denominator), denominator: UInt32(choice.rate.numerator))
        try device.ioctl(.sParm, &parm)
        return (format, parm)
    }

    /// Throws when `granted` differs from `choice` in format, size or interval, naming both.
    private static func check(_ granted: V4L2Capture.Granted, against choice: ModeSelector.Choice, path: String)
        throws(V4L2Failure)
    {
        let mode = choice.mode
        let isAsked =
            granted.format == mode.format && granted.width == mode.width && granted.height == mode.height
            && granted.interval == choice.rate.reciprocal
        if isAsked { return }
        let asked = "\(mode.format.fourCC) \(mode.width)x\(mode.height) at \(ModeSelector.rateText(choice.rate)) fps"
        let got =
            "\(granted.format.fourCC) \(granted.width)x\(granted.height) at \(ModeSelector.rateText(granted.rate)) fps"
        throw V4L2Failure.modeNotGranted(path: path, detail: "asked for \(asked), the driver granted \(got)")
    }
}
