import HFRMedia

/// `export --dry-run`'s sink: takes the streams and packets the export would write and only counts
/// them (`TrackTally`). Nothing is opened or written, not even a temporary file.
final class CountingSink: PacketSink {
    let container: Container
    var encodes: Bool { false }
    private(set) var tallies: [TrackTally] = []

    init(container: Container) {
        self.container = container
    }

    func add(_ track: OutputTrack) throws(ExportFailure) -> Int {
        tallies.append(TrackTally(track))
        return tallies.count - 1
    }

    /// The chapters the export would write.
    private(set) var chapters: [Chapter] = []

    func add(chapters: [Chapter]) { self.chapters += chapters }

    func begin() {}

    func write(_ packet: Packet, from timeBase: Rational, to stream: Int) {
        tallies[stream].count(packet, timeBase: timeBase)
    }

    func finish() {}
}
