import HFRMedia

/// What makes a re-encode's output frames, one per slot of the plan (`SlotSchedule`): the export's
/// `VideoReencoder` decodes and encodes them; the dry run's `SlotCounter` decides the same slots
/// from the packets' times and hands on an empty packet for each, encoding nothing.
protocol Reencoder: AnyObject {
    /// The time base of the packets it writes.
    var outputTimeBase: Rational { get }
    /// Source frames it was given (decoded, or packets with a time), and output frames written.
    var framesIn: Int { get }
    var framesOut: Int { get }
    /// Of those written, new pictures made between captured frames.
    var interpolated: Int { get }
    /// Output frames per segment of the time map (by the source time of their slot).
    var slots: FrameTally { get }
    /// Scene cuts found where pictures would have been made (none in the dry run: it decodes nothing).
    var cuts: [SceneCut] { get }
    /// `--deflicker`: the flicker's depth in the written pictures (nil in the dry run, or none taken out).
    var flickerDepthAfter: Double? { get }
    /// The output stream's codec parameters; nil when no encoder is opened (the dry run).
    func outputParameters(width: Int, height: Int) throws(ExportFailure) -> CodecParameters?
    /// Takes one source packet (nil at the end) and writes every output frame now decided.
    func push(_ input: Packet?, write: (Packet) throws(ExportFailure) -> Void) throws(ExportFailure)
}
