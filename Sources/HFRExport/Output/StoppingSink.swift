import HFRMedia

/// A sink that asks whether to stop before every packet it passes on: a re-encode that makes
/// thousands of frames from one input packet (a long gap in a timestamps file, a deep slow-down)
/// stops on Ctrl-C or SIGTERM within one frame, not at the next input packet.
final class StoppingSink: PacketSink {
    private let sink: any PacketSink
    private let shouldStop: () -> Bool

    init(_ sink: any PacketSink, shouldStop: @escaping () -> Bool) {
        self.sink = sink
        self.shouldStop = shouldStop
    }

    var container: Container { sink.container }
    var encodes: Bool { sink.encodes }
    var tallies: [TrackTally] { sink.tallies }
    func add(_ track: OutputTrack) throws(ExportFailure) -> Int { try sink.add(track) }
    func add(chapters: [Chapter]) throws(ExportFailure) { try sink.add(chapters: chapters) }
    func begin() throws(ExportFailure) { try sink.begin() }
    func finish() throws(ExportFailure) { try sink.finish() }

    func write(_ packet: Packet, from timeBase: Rational, to stream: Int) throws(ExportFailure) {
        if shouldStop() { throw .interrupted }
        try sink.write(packet, from: timeBase, to: stream)
    }
}
