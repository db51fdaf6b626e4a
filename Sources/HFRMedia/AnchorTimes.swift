import CFFmpeg

/// Presentation times for the I and P frames of MPEG-1/2 and MPEG-4 Part 2 video in a container
/// that stores decode times only (AVI): FFmpeg gives a B-frame its time (shown as it is decoded)
/// and leaves the frame before the B-frames, an anchor, without one. These codecs reorder by one
/// anchor: an anchor is shown when the next one is decoded, so it takes the next anchor's decode
/// time (the last one, the end of the stream). Holds an anchor and the B-frames after it until the
/// next anchor arrives; other streams' packets pass by.
final class AnchorTimes {
    /// The anchor waiting for its time, then the B-frames read after it, in read order.
    private var held: [Packet] = []
    /// Packets whose times are known, to hand out in read order.
    private var ready: [Packet] = []
    /// Where the held stream's last packet ends (the last anchor's time at the end of the stream).
    private var end: Int64?

    /// Codecs that reorder by one anchor frame.
    static let codecs: Set<AVCodecID> = [AV_CODEC_ID_MPEG4, AV_CODEC_ID_MPEG1VIDEO, AV_CODEC_ID_MPEG2VIDEO]

    /// Whether `packet` of `stream` needs this: video of such a codec that reorders frames, with a
    /// decode time but no presentation time.
    static func applies(to packet: Packet, of stream: AVStream) -> Bool {
        guard packet.pts == nil, packet.dts != nil, let parameters = stream.codecpar else { return false }
        return parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO && parameters.pointee.video_delay > 0
            && codecs.contains(parameters.pointee.codec_id)
    }

    var isHolding: Bool { !held.isEmpty }
    var heldStream: Int? { held.first?.streamIndex }

    /// Takes `packet`'s content (an anchor without a time, or a frame read after a held anchor in
    /// its stream); a new anchor gives the held one its time and releases what was held.
    func take(_ packet: Packet, isAnchor: Bool) throws(AVFailure) {
        let kept = try Packet()
        av_packet_move_ref(kept.pointer, packet.pointer)
        if let dts = kept.dts { end = dts + max(kept.duration, 1) }
        if isAnchor {
            if let anchor = held.first { anchor.pts = kept.dts }
            ready += held
            held = [kept]
        } else {
            held.append(kept)
        }
    }

    /// At the end of the input: the held anchor is shown after everything else.
    func finish() {
        if let anchor = held.first { anchor.pts = end }
        ready += held
        held = []
    }

    /// Moves the next released packet into `packet`; false when none is released.
    func next(into packet: Packet) -> Bool {
        guard !ready.isEmpty else { return false }
        let first = ready.removeFirst()
        packet.unref()
        av_packet_move_ref(packet.pointer, first.pointer)
        return true
    }
}
