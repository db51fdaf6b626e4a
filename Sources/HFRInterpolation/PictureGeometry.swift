internal import COpticalFlow
import HFRMedia

/// What every interpolator checks before it reads a pair, and the C view of a frame's planes.
struct PictureGeometry {
    let width: Int
    let height: Int

    /// Throws unless both pictures are yuv420p of this size and every fraction is inside (0, 1).
    func check(_ frames: [Frame], fractions: [Double]) throws(InterpolationError) {
        for frame in frames {
            guard let format = frame.pixelFormat, format.isI420 else {
                throw .unsupportedFormat(frame.pixelFormat?.name ?? "no picture")
            }
            guard frame.width == width, frame.height == height else {
                throw .sizeMismatch(expected: "\(width)x\(height)", found: "\(frame.width)x\(frame.height)")
            }
        }
        if let bad = fractions.first(where: { !($0 > 0 && $0 < 1) }) { throw .fractionOutOfRange(bad) }
    }

    /// A new picture of this size in the format of `like` (yuv420p or its full-range twin).
    func newPicture(like frame: Frame) throws -> Frame {
        try Frame.picture(width: width, height: height, format: frame.pixelFormat ?? .yuv420p)
    }
}

extension hfr_picture {
    /// The three planes of a checked 4:2:0 frame.
    init(_ frame: Frame) {
        self.init()
        let planes = (0..<3).map { frame.plane($0) }
        data = (planes[0]?.bytes, planes[1]?.bytes, planes[2]?.bytes)
        linesize = (
            Int32(planes[0]?.bytesPerLine ?? 0), Int32(planes[1]?.bytesPerLine ?? 0),
            Int32(planes[2]?.bytesPerLine ?? 0)
        )
    }
}
