internal import COpticalFlow
import HFRMedia

/// Cross-fades: each new picture is the two neighbours weighted by their distance in time.
public final class BlendInterpolator: FrameInterpolator {
    let geometry: PictureGeometry

    public init(width: Int, height: Int) throws {
        if let failure = Interpolators.libraryFailure { throw failure }
        guard width >= 2, height >= 2 else { throw InterpolationError.unsupportedSize("\(width)x\(height)") }
        geometry = PictureGeometry(width: width, height: height)
    }

    public func frames(between earlier: Frame, and later: Frame, at fractions: [Double]) throws -> [Frame] {
        try geometry.check([earlier, later], fractions: fractions)
        var a = hfr_picture(earlier)
        var b = hfr_picture(later)
        return try fractions.map { fraction in
            let frame = try geometry.newPicture(like: earlier)
            var out = hfr_picture(frame)
            guard hfr_blend(&a, &b, Int32(geometry.width), Int32(geometry.height), fraction, &out) == 0 else {
                throw InterpolationError.failed("blend")
            }
            return frame
        }
    }
}
