internal import COpticalFlow
import HFRMedia

/// How the frames between two captured ones are made when a retime needs more frames than were
/// captured.
public enum InterpolationMethod: String, Sendable, CaseIterable {
    /// Motion-compensated: dense optical flow both ways, warps blended with consistency weights.
    case flow
    /// A weighted average of the two neighbours (cross-fade).
    case blend
    /// The earlier neighbour shown again (no new picture).
    case `repeat`
}

/// Makes pictures between two captured ones.
public protocol FrameInterpolator: AnyObject {
    /// New frames at `fractions` (each strictly between 0 and 1) of the way from `earlier` to
    /// `later`, in order: yuv420p pictures of the same size, owned by the caller, pts unset.
    func frames(between earlier: Frame, and later: Frame, at fractions: [Double]) throws -> [Frame]
}

/// The interpolators by method.
public enum Interpolators {
    /// Why the interpolators' library (libhfr-opticalflow.so, loaded on first use) cannot be
    /// loaded; nil once it is.
    public static var libraryFailure: InterpolationError? {
        hfr_optical_flow_load_error().map { .libraryMissing(String(cString: $0)) }
    }

    /// An interpolator for `width`×`height` pictures; nil for `repeat`, which needs none.
    public static func make(
        _ method: InterpolationMethod, width: Int, height: Int
    ) throws -> (any FrameInterpolator)? {
        switch method {
        case .flow: try FlowInterpolator(width: width, height: height)
        case .blend: try BlendInterpolator(width: width, height: height)
        case .repeat: nil
        }
    }
}
