import HFRMedia
import HFRTestSupport
import Testing

/// Issue 41, item 7: when the layered encoder caps its QP. 1.2 Mb/s at 120 fps is a share of
/// 10 000 bits (1250 bytes) a frame; GOPs of 120 frames in 3 layers (a pattern of 4).
@Suite struct QPCapPolicyTests {
    static func policy(bitrate: Int = 1_200_000) -> QPCapPolicy {
        QPCapPolicy(bitrate: bitrate, frameRate: Rational(120), keyframeInterval: 120, temporalLayers: 3)
    }

    /// Feeds `count` frames of `bytes` each (the first an IDR of `idrBytes` when `startsWithIDR`),
    /// deciding before each as the encoder does; the frames before which the cap changed.
    static func run(
        _ policy: inout QPCapPolicy, frames count: Int, bytes: Int, idrBytes: Int = 0, from start: Int = 0,
        startsWithIDR: Bool = true
    ) -> [Int] {
        var changes: [Int] = []
        for i in 0..<count {
            let startsGOP = startsWithIDR && i == 0 && start > 0
            if policy.decide(startsGOP: startsGOP) { changes.append(start + i) }
            let isIDR = (startsWithIDR && i == 0) || changes.last == start + i
            policy.encoded(bytes: isIDR ? idrBytes : bytes, isIDR: isIDR)
        }
        return changes
    }

    @Test func startsCappedWithAnEarlyCheckOnAWholeLayerPattern() {
        let policy = Self.policy()
        #expect(policy.isCapped)
        #expect(policy.qpRange == 12...20)
        // An eighth of 120 is 15, down to a whole pattern of 4.
        #expect(policy.earlyCheckFrame == 12)
        let sixty = QPCapPolicy(bitrate: 1, frameRate: Rational(60), keyframeInterval: 60, temporalLayers: 2)
        #expect(sixty.earlyCheckFrame == 6)
        // A GOP of one pattern has no room for an early check.
        let short = QPCapPolicy(bitrate: 1, frameRate: Rational(30), keyframeInterval: 4, temporalLayers: 3)
        #expect(short.earlyCheckFrame == nil)
    }

    /// Busy content: P frames at 4× their share lift the cap at the early check, not a whole GOP
    /// later; an IDR however large is not counted.
    @Test func busyContentLiftsTheCapAtTheEarlyCheck() {
        var policy = Self.policy()
        let before = Self.run(&policy, frames: 12, bytes: 5000, idrBytes: 1)
        #expect(before == [])
        let lifted = policy.decide(startsGOP: false)
        #expect(lifted && !policy.isCapped)
        #expect(policy.qpRange == 12...42)
    }

    /// Easy content stays capped, GOP after GOP, however large its IDR frames.
    @Test func contentWithinItsShareStaysCapped() {
        var policy = Self.policy()
        for gop in 0..<4 {
            let changes = Self.run(&policy, frames: 120, bytes: 1500, idrBytes: 500_000, from: gop * 120)
            #expect(changes == [])
        }
        #expect(policy.isCapped)
    }

    /// Lifted, the cap comes back only after a GOP well under its share (< 1/2), at the GOP's start;
    /// between 1/2 and 5/4 nothing changes either way, so it does not flap.
    @Test func theCapReturnsOnlyWellUnderTheShare() {
        var policy = Self.policy()
        // (frames, bytes each) of four GOPs: 1.6× the share, then 0.56×, 0.48×, 1.2×.
        var changes: [Int] = []
        for (start, frames, bytes) in [(0, 120, 2000), (120, 120, 700), (240, 120, 600), (360, 120, 1500)] {
            changes += Self.run(&policy, frames: frames, bytes: bytes, from: start)
        }
        // Lifted at the early check; back at the start of the GOP after the one at 0.48×; and,
        // capped again, a GOP at 1.2× is within the margin.
        #expect(changes == [12, 360])
        let changed = policy.decide(startsGOP: true)
        #expect(!changed && policy.isCapped)
    }

    /// A bitrate of 0 measures nothing and changes nothing (no division by zero).
    @Test func aZeroBitrateKeepsTheCap() {
        var policy = Self.policy(bitrate: 0)
        let changes = Self.run(&policy, frames: 240, bytes: 100_000)
        let changed = policy.decide(startsGOP: true)
        #expect(changes == [] && !changed && policy.isCapped)
    }

    /// The encoder that follows the policy: 260 frames of 160x120 at 120 fps (0.5 Mb/s, GOPs of
    /// 120, 3 layers). Faint noise (16 levels, fresh each frame: not a scene change) lifts the cap
    /// at the early check, whose IDR (frame 12) leaves the keyframe grid where it was (0, 120, 240)
    /// and every GOP starting its layer pattern; a ramp stays capped, its IDRs on the grid alone.
    @Test(arguments: [true, false])
    func theEncoderKeepsItsKeyframeGrid(noise: Bool) throws {
        var encoder = try H264Encoder(
            .init(
                width: 160, height: 120, frameRate: Rational(120), temporalLayers: 3, bitrate: 500_000,
                keyframeInterval: 120))
        let packet = try Packet()
        var random = SplitMix64(seed: 41)
        var pixels = [UInt8](repeating: 128, count: 160 * 120 * 3 / 2)
        var pictures: [H264Encoder.Picture] = []
        for k in 0..<260 {
            for i in 0..<160 * 120 { pixels[i] = UInt8(noise ? 120 + random.below(16) : 16 + k / 2) }
            let picture = try pixels.withUnsafeBytes { bytes in
                let frame = try #require(try Frame.view(of: bytes, width: 160, height: 120, format: .yuv420p))
                return try encoder.encode(frame, pts: Int64(k), timeBase: Rational(1, 120), into: packet)
            }
            pictures.append(picture)
        }
        let idrs = pictures.indices.filter { pictures[$0].isIDR }
        #expect(idrs == (noise ? [0, 12, 120, 240] : [0, 120, 240]))
        #expect(encoder.isQPCapped == !noise)
        // Temporal ids 0, 2, 1, 2 from each IDR on; the top layer's frames alone droppable.
        var sinceIDR = 0
        for (k, picture) in pictures.enumerated() {
            sinceIDR = picture.isIDR ? 0 : sinceIDR + 1
            #expect(picture.temporalID == [0, 2, 1, 2][sinceIDR % 4], "frame \(k)")
            #expect(picture.isDroppable == (picture.temporalID == 2), "frame \(k)")
        }
    }
}
