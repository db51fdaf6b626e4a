import CFFmpeg

/// What a stream is, read once from the demuxer into plain values.
public struct StreamInfo: Sendable {
    /// Kind of elementary stream.
    public enum Kind: String, Sendable { case video, audio, subtitle, data, other }

    public let index: Int
    public let kind: Kind
    /// FFmpeg's short codec name, e.g. "h264", "aac".
    public let codecName: String
    public let codecID: UInt32
    /// The codec profile's name, e.g. "High", "Constrained Baseline"; nil when unknown.
    public let profile: String?
    public internal(set) var timeBase: Rational
    /// The container's average frame rate (`avg_frame_rate`); nil when unknown.
    public internal(set) var averageFrameRate: Rational?
    /// The lowest rate that represents all timestamps exactly (`r_frame_rate`); nil when unknown.
    public internal(set) var realFrameRate: Rational?
    public let width: Int
    public let height: Int
    public let pixelFormat: String?
    public let sampleRate: Int
    public let channels: Int
    public let channelLayout: String?
    public let sampleFormat: String?
    /// Audio: the bits each sample holds (`bits_per_raw_sample`: 24 for 24-bit FLAC or ALAC in 32-bit
    /// samples); 0 when the stream does not say.
    public let bitsPerSample: Int
    /// Start time in `timeBase`; nil when unknown.
    public internal(set) var startTime: Int64?
    /// Duration in `timeBase`; nil when unknown.
    public internal(set) var duration: Int64?
    /// Frame count the container declares (0 when it does not say).
    public internal(set) var declaredFrameCount: Int64
    public let bitRate: Int64
    /// Codec-specific setup bytes (for H.264 in MP4: the avcC record).
    public let extradata: [UInt8]
    public let metadata: [String: String]
    /// A still image (cover art) stored as a one-frame video stream.
    public let isAttachedPicture: Bool
    /// A file attached to the input (a font, a document): a stream without packets, its bytes the
    /// extradata (FFmpeg's `AVMEDIA_TYPE_ATTACHMENT`).
    public let isAttachment: Bool
    /// FFmpeg's `AV_DISPOSITION_*` flags (default, forced, comment …).
    public let disposition: Int32
    /// The container's four-character code for the stream (`avc1`, `tmcd`, `gpmd`); nil when none.
    public let codecTag: String?
    /// Display matrix, colour description, aspect ratio and HDR side data.
    public let presentation: StreamPresentation
    /// The program holding the stream when the file has several (MPEG-TS); nil otherwise.
    public internal(set) var programID: Int?

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        let s = stream.pointee
        let par = s.codecpar.pointee
        index = Int(s.index)
        kind =
            switch par.codec_type {
            case AVMEDIA_TYPE_VIDEO: .video
            case AVMEDIA_TYPE_AUDIO: .audio
            case AVMEDIA_TYPE_SUBTITLE: .subtitle
            case AVMEDIA_TYPE_DATA: .data
            default: .other
            }
        codecID = par.codec_id.rawValue
        codecName = String(cString: avcodec_get_name(par.codec_id))
        profile = avcodec_profile_name(par.codec_id, par.profile).map { String(cString: $0) }
        timeBase = Rational(s.time_base) ?? Rational(1, 1_000_000)
        averageFrameRate = Rational(s.avg_frame_rate).flatMap { $0.numerator > 0 ? $0 : nil }
        realFrameRate = Rational(s.r_frame_rate).flatMap { $0.numerator > 0 ? $0 : nil }
        width = Int(par.width)
        height = Int(par.height)
        pixelFormat =
            par.codec_type == AVMEDIA_TYPE_VIDEO
            ? av_get_pix_fmt_name(AVPixelFormat(par.format)).map { String(cString: $0) } : nil
        sampleRate = Int(par.sample_rate)
        channels = Int(par.ch_layout.nb_channels)
        if par.codec_type == AVMEDIA_TYPE_AUDIO {
            channelLayout = channelLayoutName(par.ch_layout)
            sampleFormat = av_get_sample_fmt_name(AVSampleFormat(par.format)).map { String(cString: $0) }
            bitsPerSample = Int(par.bits_per_raw_sample)
        } else {
            channelLayout = nil
            sampleFormat = nil
            bitsPerSample = 0
        }
        startTime = Packet.optional(s.start_time)
        duration = Packet.optional(s.duration)
        declaredFrameCount = s.nb_frames
        bitRate = par.bit_rate
        extradata =
            par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
        metadata = [String: String](s.metadata)
        isAttachedPicture = s.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        isAttachment = par.codec_type == AVMEDIA_TYPE_ATTACHMENT
        disposition = s.disposition
        codecTag = StreamInfo.fourCC(par.codec_tag)
        presentation = StreamPresentation(stream)
    }

    private static func fourCC(_ tag: UInt32) -> String? {
        guard tag != 0 else { return nil }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        guard bytes.allSatisfy({ (0x20..<0x7f).contains($0) }) else { return String(tag, radix: 16) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Start time in seconds, exact.
    public var startSeconds: Rational? { startTime.map { Rational.seconds($0, in: timeBase) } }

    /// Duration in seconds, exact.
    public var durationSeconds: Rational? { duration.map { Rational.seconds($0, in: timeBase) } }
}
