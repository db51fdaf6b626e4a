/// The frame sizes hfr's H.264 encoder (OpenH264 2.3) takes, checked before any work starts so
/// that a size it would refuse is a one-line error rather than a failure after capture began.
///
/// OpenH264 picks the level from the size and refuses a frame beyond the largest level it knows,
/// 5.2: at most 36864 macroblocks of 16×16 (MaxFS of H.264 table A-1), e.g. 4096x2304 or 3840x2160.
/// Measured with hfr's settings: 4096x2304 and 7680x512 encode; 4352x2176 (36992 macroblocks) and
/// 4000x4000 fail InitializeExt. 4:2:0 needs even sides. Level 5.2's macroblock rate (2073600/s,
/// 4096x2304 at 56 fps) is not enforced by OpenH264, nor here: a high-frame-rate 4K file exceeds it
/// as a phone's does, and decoders that play it do so regardless of the level it signals.
public enum H264Limits {
    /// Level 5.2's MaxFS.
    public static let maxMacroblocks = 36864
    /// hfr's own bounds on each side (the width or height alone of a 8K frame).
    public static let sides = (min: 16, maxWidth: 7680, maxHeight: 4320)

    /// 16×16 macroblocks covering a `width`×`height` frame.
    public static func macroblocks(width: Int, height: Int) -> Int {
        ((width + 15) / 16) * ((height + 15) / 16)
    }

    /// nil when the encoder takes the size; else why not, to follow "WxH " in a message.
    public static func problem(width: Int, height: Int) -> String? {
        if width % 2 != 0 || height % 2 != 0 {
            return "has an odd side: H.264 4:2:0 needs even widths and heights"
        }
        if width < sides.min || height < sides.min || width > sides.maxWidth || height > sides.maxHeight {
            return "is outside \(sides.min)x\(sides.min) to \(sides.maxWidth)x\(sides.maxHeight)"
        }
        let count = macroblocks(width: width, height: height)
        if count > maxMacroblocks {
            return "is beyond H.264 level 5.2: \(count) macroblocks of 16x16, at most \(maxMacroblocks) "
                + "(e.g. 4096x2304, 3840x2160 or 7680x1080)"
        }
        return nil
    }
}
