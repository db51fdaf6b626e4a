import HFRMedia

/// What a sink was handed for one output stream: the packets, their bytes, and the output seconds
/// they span. Both sinks keep it, so the export's plan and the dry run's count the same way.
struct TrackTally {
    let track: OutputTrack
    private(set) var packets = 0
    private(set) var bytes: Int64 = 0
    /// Output seconds where the earliest packet starts and the latest one ends (its presentation
    /// time plus its duration).
    private(set) var start: Rational?
    private(set) var end: Rational?

    /// Seconds from the earliest packet's start to the latest one's end; nil without packets.
    var span: Rational? { end.flatMap { end in start.map { end - $0 } } }

    init(_ track: OutputTrack) {
        self.track = track
    }

    /// Counts `packet`, its timestamps in `timeBase`; before the muxer takes it.
    mutating func count(_ packet: Packet, timeBase: Rational) {
        packets += 1
        bytes += Int64(packet.size)
        guard let pts = packet.pts ?? packet.dts else { return }
        let packetStart = Rational.seconds(pts, in: timeBase)
        let packetEnd = Rational.seconds(pts + max(packet.duration, 0), in: timeBase)
        start = min(start ?? packetStart, packetStart)
        end = max(end ?? packetEnd, packetEnd)
    }
}
