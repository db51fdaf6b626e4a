import HFRMedia

/// An output stream as the export adds it to its sink: what the muxer needs to set it up (codec
/// parameters, time base, what it keeps of the input's stream) and what the plan says of it.
struct OutputTrack {
    var kind: StreamInfo.Kind
    /// The codec written (FFmpeg's short name: "h264", "aac", "subrip").
    var codec: String
    /// The input stream it comes from.
    var source: StreamInfo
    var method: ExportTrack.Method
    /// Why it is re-encoded (the video), or into what it is converted (audio); nil otherwise.
    var reason: String?
    /// A stretched audio track's algorithm (`--audio`).
    var algorithm: String?
    /// nil in the dry run for a stream an encoder makes (the encoder is not opened).
    var parameters: CodecParameters?
    /// The time base the packets' timestamps are given in.
    var timeBase: Rational
    /// Keeps the input's codec tag where the container allows it (`Muxer.keepCodecTag`).
    var keepsCodecTag = false
    var frameRate: Rational?
    /// Keeps the input stream's language, title and disposition (`Muxer.keepIdentity`).
    var keepsIdentity = false
    /// The display matrix, colour description and side data (the video's).
    var presentation: StreamPresentation?
    /// Stream tags (the video's `timecode`).
    var tags: [String: String] = [:]

    init(
        _ kind: StreamInfo.Kind, codec: String, source: StreamInfo, method: ExportTrack.Method, timeBase: Rational
    ) {
        self.kind = kind
        self.codec = codec
        self.source = source
        self.method = method
        self.timeBase = timeBase
    }
}
