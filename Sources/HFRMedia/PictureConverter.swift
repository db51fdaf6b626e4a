import CFFmpeg

/// Turns pictures into the I420 frames the H.264 encoder takes, at a fixed size, creating its
/// scaler from the first picture that needs one. The one place record and export convert video.
public struct PictureConverter: ~Copyable {
    public let width: Int
    public let height: Int
    /// yuv420p, or yuvj420p (the same layout, full range) for JPEG sources.
    public let format: PixelFormat
    private var scaler: Scaler?
    /// The pixel format the scaler reads.
    private var scalerInput: PixelFormat?
    private let converted: Frame

    public init(width: Int, height: Int, format: PixelFormat = .yuv420p) throws(AVFailure) {
        self.width = width
        self.height = height
        self.format = format
        converted = try Frame()
    }

    /// `frame` itself when it already is I420 of the right size, else the converted picture (held
    /// by the converter and overwritten by the next call).
    public mutating func i420(_ frame: Frame) throws(AVFailure) -> Frame {
        guard let format = frame.pixelFormat else { throw AVFailure.invalidData("picture without a pixel format") }
        if format.isI420, frame.width == width, frame.height == height { return frame }
        return try scaled(frame, format)
    }

    /// `frame` itself when it already has this converter's format and size, else the converted
    /// picture (held by the converter and overwritten by the next call).
    public mutating func converted(_ frame: Frame) throws(AVFailure) -> Frame {
        guard let format = frame.pixelFormat else { throw AVFailure.invalidData("picture without a pixel format") }
        if format == self.format, frame.width == width, frame.height == height { return frame }
        return try scaled(frame, format)
    }

    private mutating func scaled(_ frame: Frame, _ format: PixelFormat) throws(AVFailure) -> Frame {
        if scaler == nil || scalerInput != format {
            scaler = try Scaler(
                from: (frame.width, frame.height, format), to: (width, height, self.format))
            scalerInput = format
        }
        try scaler!.scale(frame, into: converted)
        return converted
    }

    /// `frame` itself when it already is I420 of the right size, else a new converted picture
    /// (owned by the caller: for a stage that hands its pictures on to another thread).
    public mutating func ownedI420(_ frame: Frame) throws(AVFailure) -> Frame {
        let picture = try i420(frame)
        guard picture !== frame else { return frame }
        // The converted picture's buffers are made anew by each conversion: hand them over.
        let owned = try Frame()
        av_frame_move_ref(owned.pointer, picture.pointer)
        return owned
    }
}
