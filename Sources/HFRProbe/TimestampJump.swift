import HFRMedia

/// Timestamps of one stream that jump, between one packet and the next, by more than any pause a
/// recording holds: a damaged time field (a fragment's `tfdt` of 2⁶³ ticks, an `stts` delta in a
/// 1 Hz time base). Taken at their word they give a file of millions of years, durations that
/// overflow and rates of 0.000 fps; the input is refused (exit 65) naming where the jump is.
public struct TimestampJump: Sendable, Equatable {
    /// The largest step a stream's timestamps may take: 1,000 hours, ten times the longest output
    /// hfr writes (`PlanBounds`). A camera's gaps (a paused or motion-triggered recording, a
    /// 30-hour gap in a raw stream's timestamps) stay far below it.
    public static let limitSeconds = 1000.0 * 3600

    public let stream: Int
    public let kind: StreamInfo.Kind
    /// The packet (counted from 1 in its stream) whose timestamp jumps from the one before; 0 when
    /// the stream's start lies that far from the video's (a damaged first time: every packet of
    /// the stream is then far away, and none jumps from the one before).
    public let packet: Int
    /// How far it jumps, in seconds; negative when back.
    public let seconds: Double

    /// "corrupt timestamps: the video's timestamps jump by 166799986199 hours at frame 31".
    public var cause: String {
        let hours = DecimalText.fixed(abs(seconds) / 3600, digits: 0)
        let jump = seconds < 0 ? "jump back by" : "jump by"
        guard packet > 0 else {
            let side = seconds < 0 ? "before" : "after"
            return "corrupt timestamps: stream #\(stream) (\(kind.rawValue)) starts \(hours) hours \(side) the video"
        }
        guard kind != .video else {
            return "corrupt timestamps: the video's timestamps \(jump) \(hours) hours at frame \(packet)"
        }
        return
            "corrupt timestamps: stream #\(stream) (\(kind.rawValue)) timestamps \(jump) \(hours) hours at packet \(packet)"
    }

    /// The jump `watch` saw in `info`'s stream when it exceeds the limit; else nil.
    public init?(_ watch: Watch, in info: StreamInfo) {
        guard let largest = watch.largest else { return nil }
        let seconds = largest.ticks * info.timeBase.doubleValue
        guard !(abs(seconds) <= TimestampJump.limitSeconds) else { return nil }
        self.init(stream: info.index, kind: info.kind, packet: largest.packet, seconds: seconds.isNaN ? 0 : seconds)
    }

    /// `info`'s stream starting `seconds` from the video's start (its first presented time minus the
    /// video's), when that exceeds the limit; else nil.
    public init?(start seconds: Double, of info: StreamInfo) {
        guard !(abs(seconds) <= TimestampJump.limitSeconds) else { return nil }
        self.init(stream: info.index, kind: info.kind, packet: 0, seconds: seconds.isNaN ? 0 : seconds)
    }

    init(stream: Int, kind: StreamInfo.Kind, packet: Int, seconds: Double) {
        self.stream = stream
        self.kind = kind
        self.packet = packet
        self.seconds = seconds
    }

    /// The largest step between consecutive timestamps of a stream, in ticks as a `Double` (a step
    /// between two `Int64` times may not fit in one).
    public struct Watch: Sendable {
        private var last: Int64?
        private var packets = 0
        /// The step of largest magnitude and the packet (from 1) it lands on.
        public private(set) var largest: (ticks: Double, packet: Int)?

        public init() {}

        /// The next packet's timestamp (nil: none; the next one is measured from the last known).
        public mutating func add(_ timestamp: Int64?) {
            packets += 1
            guard let timestamp else { return }
            defer { last = timestamp }
            guard let last else { return }
            let step = Double(timestamp) - Double(last)
            if abs(step) > abs(largest?.ticks ?? 0) { largest = (step, packets) }
        }
    }
}
