import CFFmpeg

/// SMPTE timecode strings ("01:00:00:00", ";" before the frames for drop-frame), as MOV `tmcd`
/// tracks and the `timecode` tag carry them, moved from one frame rate and start to another.
public enum Timecode {
    /// `value`, counted at `rate`, advanced by `seconds` and written at `outputRate`; nil when it
    /// cannot be read or expressed there (a rate MOV cannot count, over 255 frames per second).
    public static func convert(
        _ value: String, rate: Rational, advancedBy seconds: Rational, to outputRate: Rational
    ) -> String? {
        guard let from = rate.avRational, let to = outputRate.avRational, outputRate.rounded() <= 255 else {
            return nil
        }
        var source = AVTimecode()
        guard av_timecode_init_from_string(&source, from, value, nil) >= 0 else { return nil }
        let start = Rational(Int64(source.start)) / rate + seconds
        let frames = (start * outputRate).rounded()
        guard frames >= 0, frames <= Int64(Int32.max) else { return nil }
        let dropFrame =
            source.flags & UInt32(AV_TIMECODE_FLAG_DROPFRAME.rawValue) != 0
            && (outputRate == Rational(30000, 1001) || outputRate == Rational(60000, 1001))
        var target = AVTimecode()
        let flags = dropFrame ? UInt32(AV_TIMECODE_FLAG_DROPFRAME.rawValue) : 0
        guard av_timecode_init(&target, to, Int32(flags), Int32(frames), nil) >= 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(AV_TIMECODE_STR_SIZE))
        return buffer.withUnsafeMutableBufferPointer { b in
            av_timecode_make_string(&target, b.baseAddress, 0).map { String(cString: $0) }
        }
    }
}
