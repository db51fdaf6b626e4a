import HFRMedia

/// Where an export's output goes: its streams declared (`OutputTrack`), a start, the packets, an
/// end. The export's sink is `MuxerSink` (the file); `export --dry-run`'s is `CountingSink`, which
/// writes nothing. Everything before it — which packets are kept and when they are shown, the
/// re-encoders' slots, the routing of audio and other tracks — is the one pass both run
/// (`ExportPipeline.pass`), and both sinks count what they are handed alike (`TrackTally`): the plan
/// the dry run prints and the plan the export reports are the same figures.
protocol PacketSink: AnyObject {
    /// The output container.
    var container: Container { get }
    /// Whether re-encoded video and retimed audio are really decoded and encoded: false in the dry
    /// run, which counts the re-encoders' decisions (`SlotCounter`, `PlannedRetime`) instead.
    var encodes: Bool { get }
    /// Per output stream (by index): the stream as declared and what it was handed.
    var tallies: [TrackTally] { get }
    /// Adds an output stream; returns its index.
    func add(_ track: OutputTrack) throws(ExportFailure) -> Int
    /// Chapters (on the output's timeline), before `begin`.
    func add(chapters: [Chapter]) throws(ExportFailure)
    /// After the last stream is added: the container's header.
    func begin() throws(ExportFailure)
    /// Takes `packet` (its timestamps in `timeBase`) for output stream `stream`.
    func write(_ packet: Packet, from timeBase: Rational, to stream: Int) throws(ExportFailure)
    /// After the last packet: the trailer.
    func finish() throws(ExportFailure)
}
