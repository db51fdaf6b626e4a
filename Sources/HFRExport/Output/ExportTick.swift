/// How far an export has come, for a progress line: sent when the output's writing starts and then
/// about twice a second while packets are copied or re-encoded.
public struct ExportTick: Sendable {
    /// Share of the input read (0…1), from the position of the last packet read.
    public var inputFraction: Double
    /// Video frames written to the output so far.
    public var framesWritten: Int
    /// Seconds of output video written so far (end of the latest frame written).
    public var outputSeconds: Double
    /// Seconds of output video the plan will write in all.
    public var plannedSeconds: Double
    /// The video is decoded and re-encoded (known from the plan, before the first frame).
    public var isReencoding: Bool

    public init(
        inputFraction: Double, framesWritten: Int, outputSeconds: Double, plannedSeconds: Double, isReencoding: Bool
    ) {
        self.inputFraction = inputFraction
        self.framesWritten = framesWritten
        self.outputSeconds = outputSeconds
        self.plannedSeconds = plannedSeconds
        self.isReencoding = isReencoding
    }
}
