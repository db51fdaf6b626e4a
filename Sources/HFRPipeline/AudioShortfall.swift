import HFRMedia

/// Audio that stopped before the video did (the source ended, stalled to the end, or failed; or the
/// encoder failed): the recording went on, and the report says where and what the track does then.
public struct AudioShortfall: Sendable {
    /// Why the audio stopped.
    public enum Cause: String, Sendable {
        /// The source delivered no more audio (it ended, or stalled until the video's end).
        case endOfSource = "end-of-source"
        /// Reading or decoding the source's audio failed.
        case sourceError = "source-error"
        /// The audio encoder failed.
        case encoderError = "encoder-error"
    }

    /// Seconds from the first frame to where the source's audio (or the encoded track) stopped.
    public var at: Rational
    public var cause: Cause
    /// True: the track goes on in silence to the video's end; false: it ends at `at`.
    public var isPadded: Bool
    /// What failed, for the two error causes.
    public var failure: String?

    /// Audio that ends more than this before the video did stop early; less is the usual tail
    /// (the last audio frame and video frame do not end together), padded without a word.
    static let tolerance = Rational(1, 5)

    /// What the audio stage's outcome says, nil when the audio lasted as long as the video.
    /// `sourceFailure`: why the source's audio (or the audio device) failed, if it did.
    static func from(_ audio: AudioEncodeStage.Outcome, sampleRate: Int, sourceFailure: String?) -> AudioShortfall? {
        let rate = Rational(Int64(sampleRate))
        if let failure = audio.failure {
            return AudioShortfall(
                at: Rational(audio.encoded) / rate, cause: .encoderError, isPadded: false, failure: "\(failure)")
        }
        guard let target = audio.target, Rational(target - audio.sourceEnd) / rate > tolerance else { return nil }
        return AudioShortfall(
            at: Rational(audio.sourceEnd) / rate, cause: sourceFailure == nil ? .endOfSource : .sourceError,
            isPadded: true, failure: sourceFailure)
    }
}
