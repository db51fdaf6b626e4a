import HFRMedia

/// What the capture stage sends the audio encoder: samples placed on the video's timeline, then,
/// last, where the video ended (so the audio is padded or cut to end with it).
enum CapturedAudio: Sendable {
    /// Samples whose pts counts samples from the first video frame.
    case samples(Frame)
    /// The source sent nothing up to here (seconds from the first video frame): it stalled or
    /// ended, so the track goes on in silence (samples arriving later for that span are cut).
    case silence(until: Rational)
    /// The end of the last video frame kept, in seconds from the first.
    case videoEnd(Rational)
}
