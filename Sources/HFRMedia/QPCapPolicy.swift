/// When `H264Encoder` caps OpenH264's QP: the rate control's choice, made from what the frames cost.
///
/// OpenH264 begins every GOP at QP 26 and walks down from there; at QP ≥ 21 the first P frames
/// after an IDR lose a uniform one-level luma step (issue 41: frames 1, 2, 5, 61, 121 … of a
/// brightness ramp showed their predecessor's level). A QP cap of 20 keeps every step, but content
/// that needs more than 20 then spends 3.7–30× the bitrate. So a recording starts capped, and the
/// cap is lifted when the P frames cost clearly more than their share of the bitrate (> 5/4) and
/// put back when, lifted, they cost well under it (< 1/2). A lifted cap is OpenH264's own range,
/// [12, 42]; the gap between the two thresholds keeps it from flapping, since lifted the rate
/// control spends about its share unless the content is easy enough to sit at the lowest QP.
///
/// The cap changes only before an IDR frame (changing it re-initialises the encoder, which begins
/// with one): the GOP boundaries the encoder makes anyway, and once, early in the first GOP (after
/// an eighth of it, on a whole layer pattern), so busy content does not spend a whole GOP capped
/// (the encoder then keeps its IDRs every keyframe interval from the first, as before).
/// IDR frames are left out of the costs: an IDR's size says how detailed a still picture is, not
/// whether the rate control needs a higher QP. An explicit `--bitrate` is the share measured
/// against, so the rule is the same whichever way the bitrate was chosen.
public struct QPCapPolicy: Sendable, Equatable {
    /// The highest QP while capped: 21 already loses the one-level step of the recipe.
    public static let cappedMaxQP: Int32 = 20
    /// The range OpenH264 takes for camera video when given none (hfr's before the cap): lifted.
    public static let openRange: ClosedRange<Int32> = 12...42

    /// Bits per second the frames are measured against.
    public let bitrate: Int
    /// Frames per second, each frame's share being bitrate / frameRate.
    public let frameRate: Rational
    /// The frame before which the early check is made; nil when the GOP is too short for one.
    public let earlyCheckFrame: Int?
    /// Whether the QP is capped now.
    public private(set) var isCapped = true
    /// Frames seen, and the P frames' bits and count since the last decision at a GOP's start.
    private var frames = 0
    private var pictureBits: Int64 = 0
    private var pictures = 0

    /// `keyframeInterval` frames a GOP; GOPs of `temporalLayers` layers repeat every 2^(layers − 1).
    public init(bitrate: Int, frameRate: Rational, keyframeInterval: Int, temporalLayers: Int) {
        self.bitrate = bitrate
        self.frameRate = frameRate
        let pattern = 1 << (max(1, temporalLayers) - 1)
        let early = max(pattern, keyframeInterval / 8 / pattern * pattern)
        earlyCheckFrame = early < keyframeInterval ? early : nil
    }

    /// QP range OpenH264 is given in this state.
    public var qpRange: ClosedRange<Int32> {
        isCapped ? Self.openRange.lowerBound...Self.cappedMaxQP : Self.openRange
    }

    /// Decides before the next frame whether the cap changes; true when it does, which the encoder
    /// applies by re-initialising, so the next frame is an IDR. `startsGOP`: the encoder makes the
    /// next frame an IDR anyway (its keyframe interval, or one asked for).
    public mutating func decide(startsGOP: Bool) -> Bool {
        let isEarly = frames == earlyCheckFrame
        guard startsGOP || isEarly else { return false }
        // Cost of the P frames against their share: bits · fps / (frames · bitrate).
        let cost =
            pictures > 0 && bitrate > 0
            ? Rational(pictureBits) * frameRate / Rational(Int64(pictures) * Int64(bitrate)) : nil
        let changes =
            cost.map { isCapped ? $0 > Rational(5, 4) : $0 < Rational(1, 2) } ?? false
        if changes { isCapped.toggle() }
        // A GOP starts here (an early check that changes the cap starts one): count afresh.
        if startsGOP || changes {
            pictureBits = 0
            pictures = 0
        }
        return changes
    }

    /// Counts an encoded frame of `bytes` bytes.
    public mutating func encoded(bytes: Int, isIDR: Bool) {
        frames += 1
        guard !isIDR else { return }
        pictureBits += Int64(bytes) * 8
        pictures += 1
    }
}
