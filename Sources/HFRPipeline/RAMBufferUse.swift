/// What `--buffer ram` held: its budget, how full it got, and how the time split between capturing
/// and saving (encoding the frames still held once the capture ended).
public struct RAMBufferUse: Sendable {
    /// SIZE: the bytes of frames that could wait.
    public let budgetBytes: Int
    /// The most bytes of frames waiting at once.
    public let peakBytes: Int
    /// The most frames waiting at once.
    public let peakFrames: Int
    /// Wall seconds from the start to the end of the capture.
    public let captureSeconds: Double
    /// Wall seconds from the end of the capture to the file finished.
    public let savingSeconds: Double
}
