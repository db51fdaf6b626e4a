import HFRMedia

/// Why an encoding stage of a recording stopped: OpenH264 or libav (AAC, conversion) failed.
public enum EncoderFailure: Error, Sendable, CustomStringConvertible {
    case h264(H264Encoder.Failure)
    case libav(AVFailure)

    public var description: String {
        switch self {
        case .h264(let failure): failure.description
        case .libav(let failure): failure.description
        }
    }
}
