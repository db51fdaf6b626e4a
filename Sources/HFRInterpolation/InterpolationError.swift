/// Why pictures could not be interpolated.
public enum InterpolationError: Error, Equatable, CustomStringConvertible {
    /// A picture is not planar 4:2:0 (its format's name).
    case unsupportedFormat(String)
    /// A picture's size differs from the interpolator's.
    case sizeMismatch(expected: String, found: String)
    /// A fraction is not strictly between 0 and 1.
    case fractionOutOfRange(Double)
    /// The size cannot be interpolated (too small).
    case unsupportedSize(String)
    /// OpenCV failed (its message).
    case failed(String)
    /// libhfr-opticalflow.so, which holds the interpolators, could not be loaded (why).
    case libraryMissing(String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let name): "interpolation needs yuv420p pictures, not \(name)"
        case .sizeMismatch(let expected, let found): "picture is \(found), the interpolator's size is \(expected)"
        case .fractionOutOfRange(let value): "interpolation fraction \(value) is not between 0 and 1"
        case .unsupportedSize(let size): "cannot interpolate \(size) pictures"
        case .failed(let message): "interpolation failed: \(message)"
        case .libraryMissing(let reason):
            "interpolation needs libhfr-opticalflow.so, beside hfr or in ../lib/hfr (reinstall hfr): \(reason)"
        }
    }
}
