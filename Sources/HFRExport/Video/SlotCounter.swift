import HFRMedia

/// The dry run's re-encoder: decides each output frame slot from the times of the packets it is
/// given, as `VideoReencoder` decides it from the decoded frames (`SlotSchedule`, in presentation
/// order), counts it as the re-encoder counts what it encodes, and hands on for each an empty
/// packet timed as the encoder's would be. Nothing is decoded or encoded.
final class SlotCounter: Reencoder {
    let outputTimeBase: Rational
    private let frameTicks: Int64
    private let plan: ExportPlan
    private let sourceTimeBase: Rational
    private let origin: Rational
    private let span: ReencodedSpan?
    /// Source seconds (from the origin) of the frames given so far, in decode order.
    private var times: [Rational] = []
    private let packet: Packet
    private(set) var slots: FrameTally
    private(set) var framesIn = 0
    var framesOut: Int { slots.framesOut }
    var interpolated: Int { slots.interpolated }
    /// The cuts are only seen in decoded pictures: the dry run counts the slots across them as made.
    var cuts: [SceneCut] { [] }
    var flickerDepthAfter: Double? { nil }

    init(info: StreamInfo, plan: ExportPlan, origin: Rational, span: ReencodedSpan?) throws(ExportFailure) {
        (outputTimeBase, frameTicks) = VideoReencoder.timing(rate: plan.outputRate)
        self.plan = plan
        sourceTimeBase = info.timeBase
        self.origin = origin
        self.span = span
        slots = FrameTally(segmentCount: plan.map.segments.count)
        packet = try ExportFailure.during("allocating a packet") { try Packet() }
    }

    func outputParameters(width: Int, height: Int) -> CodecParameters? { nil }

    /// Keeps the packet's time; at the end (nil) decides and writes every slot.
    func push(_ input: Packet?, write: (Packet) throws(ExportFailure) -> Void) throws(ExportFailure) {
        if let input {
            guard let pts = input.pts else { return }
            framesIn += 1
            times.append(plan.time(pts, in: sourceTimeBase, origin: origin))
            return
        }
        let times = self.times
        self.times = []
        try SlotSchedule.forEachDecision(plan: plan, sourceTimeBase: sourceTimeBase, times: times, span: span) {
            d throws(ExportFailure) in
            slots.countSlot(d, frameTicks: frameTicks, timeBase: outputTimeBase, plan: plan)
            packet.pts = d.slot * frameTicks
            packet.dts = packet.pts
            packet.duration = frameTicks
            try write(packet)
        }
    }
}
