import CFFmpeg

/// Orientation as `hfr --rotate` states it: how many degrees **clockwise** a viewer turns the
/// stored picture to show it (0, 90, 180, 270), as exiftool's `Rotation` and a phone's gallery say.
///
/// A phone held upright (portrait) stores landscape pictures and the MP4 `tkhd` matrix
/// `0 1 0 / -1 0 0` (a = 0, b = 1, c = −1, d = 0): `clockwise: 90`. FFmpeg counts the other way
/// (`av_display_rotation_get`, ffprobe's `rotation`, counter-clockwise degrees, in [−180, 180]):
/// ffprobe 5.1 prints −90 for 90, −180 for 180 and 90 for 270.
public enum DisplayRotation {
    /// The values `--rotate` takes.
    public static let allowed: [Int] = [0, 90, 180, 270]

    /// The 3×3 display matrix (FFmpeg's layout: row-major, 16.16 fixed point, the last column
    /// 2.30) that turns the picture `clockwise` degrees; nil for a value not in `allowed`.
    /// Exact integers, as a phone writes them (no trigonometry, no rounding).
    public static func matrix(clockwise: Int) -> [Int32]? {
        let one: Int32 = 1 << 16
        let (a, b, c, d): (Int32, Int32, Int32, Int32)
        switch clockwise {
        case 0: (a, b, c, d) = (one, 0, 0, one)
        case 90: (a, b, c, d) = (0, one, -one, 0)
        case 180: (a, b, c, d) = (-one, 0, 0, -one)
        case 270: (a, b, c, d) = (0, -one, one, 0)
        default: return nil
        }
        return [a, b, 0, c, d, 0, 0, 0, 1 << 30]
    }

    /// The clockwise turn a display matrix makes, when it is a quarter-turn rotation (no flip, no
    /// scaling, no perspective; the translation MOV stores with it is ignored); nil otherwise.
    public static func clockwise(of matrix: [Int32]) -> Int? {
        guard matrix.count >= 9, matrix[2] == 0, matrix[5] == 0, matrix[8] == 1 << 30 else { return nil }
        let turn = [matrix[0], matrix[1], matrix[3], matrix[4]]
        return allowed.first { angle in
            let m = self.matrix(clockwise: angle)!
            return [m[0], m[1], m[3], m[4]] == turn
        }
    }
}

extension StreamPresentation {
    /// The display matrix's nine values; nil without one.
    public var displayMatrix: [Int32]? {
        guard let entry = sideData.first(where: { $0.type == AV_PKT_DATA_DISPLAYMATRIX.rawValue }),
            entry.bytes.count >= 36
        else { return nil }
        return entry.bytes.withUnsafeBytes { Array($0.bindMemory(to: Int32.self).prefix(9)) }
    }

    /// Degrees clockwise a viewer turns the picture (`DisplayRotation`): 0 without a display matrix,
    /// nil for a matrix that is not a quarter turn (a flip, an odd angle).
    public var clockwiseRotation: Int? {
        guard let matrix = displayMatrix else { return 0 }
        return DisplayRotation.clockwise(of: matrix)
    }

    /// This presentation turned `clockwise` degrees (one of `DisplayRotation.allowed`) instead of
    /// as it was: 0 removes the display matrix (players then show the picture as stored).
    public func rotated(clockwise: Int) -> StreamPresentation {
        var p = self
        p.sideData.removeAll { $0.type == AV_PKT_DATA_DISPLAYMATRIX.rawValue }
        if clockwise != 0, let matrix = DisplayRotation.matrix(clockwise: clockwise) {
            let bytes = matrix.withUnsafeBytes { Array($0) }
            p.sideData.append(SideData(type: AV_PKT_DATA_DISPLAYMATRIX.rawValue, bytes: bytes))
        }
        return p
    }
}

extension Muxer {
    /// Gives output stream `index` the display matrix `matrix` (MP4/MOV write it in `tkhd`); nothing
    /// for nil or the identity. Call before `writeHeader`.
    public func setDisplayMatrix(_ matrix: [Int32]?, ofStream index: Int) throws(AVFailure) {
        guard let matrix, matrix.count == 9, matrix != DisplayRotation.matrix(clockwise: 0) else { return }
        let stream = context.pointee.streams[index]!
        guard let data = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 36) else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_stream_new_side_data", stage: .writingOutput)
        }
        matrix.withUnsafeBytes { data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 36) }
    }
}
