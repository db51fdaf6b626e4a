import HFRMedia

/// Decode times for the packets kept when layers are dropped from a stream that reorders frames
/// (B-frames). Their source decode times are not evenly spaced any more (the first keeps the
/// source's one-frame lead), and the container derives the stream's duration and average rate from
/// them: 61 frames at 60 fps said 1.004 s and 14640/241 fps. Kept packet k decodes at
/// first + (k − d)·duration instead, d being the source's reorder delay in frames: a subset of
/// frames never reorders deeper than the whole, so every packet still decodes before it is shown.
struct EvenDecodeTimes {
    /// The source's reorder delay in frames, from the first packet read (decode order).
    private var delay: Int64?
    private var first: Int64?
    private var kept: Int64 = 0
    private var last: Int64?

    /// Notes the reorder delay from the first source packet (pts − dts, in frames).
    mutating func observeSource(_ packet: Packet) {
        guard delay == nil, let pts = packet.pts, let dts = packet.dts, packet.duration > 0 else { return }
        delay = max(0, Int64((Double(pts - dts) / Double(packet.duration)).rounded(.up)))
    }

    /// Sets the decode time of a kept packet whose pts and duration are output ticks already.
    mutating func retime(_ packet: Packet) {
        guard let delay, delay > 0, let pts = packet.pts, packet.dts != nil, packet.duration > 0 else { return }
        let start = first ?? pts
        first = start
        var dts = min(start + (kept - delay) * packet.duration, pts)
        if let last, dts <= last { dts = last + 1 }
        packet.dts = dts
        last = dts
        kept += 1
    }
}
