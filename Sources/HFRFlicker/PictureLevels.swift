import HFRMedia

/// Pictures as flicker is measured and corrected in: a decoded picture with the `SampleLevels` of
/// its format (looked up once per format), or, for formats whose brightness is not in planes of
/// its own (packed YUV, RGB with padding), an I420 copy of it.
public struct PictureLevels: ~Copyable {
    private var cached: (format: PixelFormat, levels: SampleLevels?)?
    private var converter: PictureConverter

    public init(width: Int, height: Int) throws(AVFailure) {
        converter = try PictureConverter(width: width, height: height)
    }

    /// `frame` and its levels, or an I420 copy (owned by the caller) and its; nil for a picture
    /// without a pixel format or whose copy cannot be had.
    public mutating func readable(_ frame: Frame) throws(AVFailure) -> (picture: Frame, levels: SampleLevels)? {
        guard let format = frame.pixelFormat else { return nil }
        if cached?.format != format {
            cached = (format, SampleLevels(format: format, width: frame.width, height: frame.height))
        }
        if let own = cached?.levels { return (frame, own) }
        let copy = try converter.ownedI420(frame)
        return SampleLevels.of(copy).map { (copy, $0) }
    }
}
