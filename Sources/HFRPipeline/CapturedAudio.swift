import HFRMedia

/// What the capture stage sends the audio encoder: samples placed on the video's timeline, then,
/// last, where the video ended (so the audio is padded or cut to end with it).
enum CapturedAudio: Sendable {
    /// Samples whose pts counts samples from the first video frame.
    case samples(Frame)
    /// The end of the last video frame kept, in seconds from the first.
    case videoEnd(Rational)
}
