internal import COpticalFlow
import HFRMedia

/// Motion-compensated interpolation: OpenCV's DIS optical flow both ways between the neighbours,
/// both warped to the new picture's time and blended where the two flows agree (see
/// `Sources/COpticalFlow/optical_flow.cpp`). Uses both cores for each pair. Holds its working
/// buffers from pair to pair (peak RSS about 25 MB above blending at 720p, 55 MB at 1080p); one pair
/// at a time, so a caller that wants pairs in parallel makes one interpolator per thread.
public final class FlowInterpolator: FrameInterpolator {
    let geometry: PictureGeometry
    private let flow: OpaquePointer

    /// How the flow is estimated (the defaults are the measured choice).
    public struct Settings: Sendable, Equatable {
        /// DIS preset: 0 ultrafast, 1 fast, 2 medium.
        public var preset: Int
        /// The luma is shrunk by this factor before the flow is estimated.
        public var downscale: Int
        /// Forward-backward disagreement (in flow pixels) at which a warp's weight halves.
        public var consistency: Double
        /// Threads: 2 estimates both directions at once.
        public var threads: Int
        /// The AVX2 loops where the processor has them; false: the portable ones (the same pictures
        /// to rounding, slower).
        public var simd: Bool

        public static var standard: Settings {
            let s = hfr_flow_default_settings()
            return Settings(
                preset: Int(s.preset), downscale: Int(s.downscale), consistency: Double(s.consistency),
                threads: Int(s.threads), simd: s.simd != 0)
        }
    }

    public init(width: Int, height: Int, settings: Settings = .standard) throws {
        if let failure = Interpolators.libraryFailure { throw failure }
        var s = hfr_flow_settings(
            preset: Int32(settings.preset), downscale: Int32(settings.downscale),
            consistency: Float(settings.consistency), threads: Int32(settings.threads), simd: settings.simd ? 1 : 0)
        guard let flow = hfr_flow_create(Int32(width), Int32(height), &s) else {
            throw InterpolationError.unsupportedSize("\(width)x\(height)")
        }
        self.flow = flow
        geometry = PictureGeometry(width: width, height: height)
    }

    deinit { hfr_flow_destroy(flow) }

    public func frames(between earlier: Frame, and later: Frame, at fractions: [Double]) throws -> [Frame] {
        try geometry.check([earlier, later], fractions: fractions)
        guard !fractions.isEmpty else { return [] }
        var a = hfr_picture(earlier)
        var b = hfr_picture(later)
        guard hfr_flow_set_pair(flow, &a, &b) == 0 else { throw failure() }
        return try fractions.map { fraction in
            let frame = try geometry.newPicture(like: earlier)
            var out = hfr_picture(frame)
            guard hfr_flow_synthesize(flow, fraction, &out) == 0 else { throw failure() }
            return frame
        }
    }

    private func failure() -> InterpolationError {
        .failed(String(cString: hfr_flow_error(flow)))
    }
}
