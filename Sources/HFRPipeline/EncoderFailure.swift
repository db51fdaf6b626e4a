import HFRMedia

/// Why an encoding stage of a recording stopped: OpenH264 or libav (AAC, conversion) failed.
public enum EncoderFailure: ClassifiedFailure, CustomStringConvertible {
    case h264(H264Encoder.Failure)
    case libav(AVFailure)

    /// What failed, as the leaf said: settings refused at open, a library missing, an encoder.
    public var kind: FailureKind {
        switch self {
        case .h264(let failure): failure.kind
        case .libav(let failure): failure.kind
        }
    }

    public var description: String {
        switch self {
        case .h264(let failure): failure.description
        case .libav(let failure): failure.description
        }
    }
}
