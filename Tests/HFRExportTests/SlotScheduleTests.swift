import Foundation
import HFRInterpolation
import HFRMedia
import HFRTestSupport
import Testing

@testable import HFRExport

/// Which picture each re-encoded output frame shows, on the 2 s 120 fps layered fixture (frames at
/// k/120 s): captured frames where the map advances the source by a frame or more per output frame,
/// new pictures between them where it advances by less.
@Suite struct SlotScheduleTests {
    static let times = (0..<240).map { Rational(Int64($0), 120) }

    func plan(_ mode: ExportSettings.Mode, _ method: InterpolationMethod) throws -> ExportPlan {
        let path = Fixtures.path("layered-120fps.mp4")
        let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
        let analysis = try InputAnalysis.analyze(path: path, fileSize: size, range: nil)
        var settings = ExportSettings(
            input: path, output: "/tmp/x.mp4", mode: mode, range: nil, audio: .mute, reencode: .auto)
        settings.interpolation = method
        return try ExportPlan.make(settings, analysis)
    }

    func decisions(_ plan: ExportPlan) throws -> [SlotSchedule.Decision] {
        var all: [SlotSchedule.Decision] = []
        try SlotSchedule.forEachDecision(plan: plan, sourceTimeBase: Rational(1, 90000), times: Self.times.shuffled()) {
            all.append($0)
        }
        return all
    }

    /// 1/8 speed at 30 fps: half a captured frame per output frame. Even slots fall on captured
    /// frames; odd ones halfway between two, made by flow and blend, the earlier frame for repeat.
    @Test(arguments: InterpolationMethod.allCases)
    func halfAFramePerOutputFrame(method: InterpolationMethod) throws {
        let p = try plan(.speed(Rational(1, 8), fps: Rational(30)), method)
        #expect(p.layers == nil)
        #expect(p.needsNewFrames(segment: 0))
        #expect(p.synthesis == (method == .repeat ? nil : method))
        let all = try decisions(p)
        // 2 s at 1/8 speed: 16 s of output at 30 fps.
        #expect(all.count == 480)
        #expect(all.map(\.slot) == Array(0..<480))
        for d in all {
            #expect(d.time == Rational(d.slot, 240))
            let isBetween = d.slot % 2 == 1 && d.slot < 479
            let expected: SlotSchedule.Pick = isBetween && method != .repeat ? .between(0.5) : .earlier
            #expect(d.pick == expected, "slot \(d.slot)")
        }
        #expect(p.reencodeReason?.contains("slowest lossless speed at 30 fps: --speed 0.25") == true)
    }

    /// A ramp: the real-time segments pick every 4th captured frame, the 0.1x one makes 3 of every
    /// 4 pictures (0.4 of a frame per output frame: fractions 0.4, 0.8, then 0.2, 0.6 ...).
    /// A long gap is decided in batches (so a stop request is seen between them): batch by batch,
    /// the decisions are those of one pass, with no slot left out or decided twice.
    @Test func batchesDecideTheSameSlotsAsOnePass() throws {
        let p = try plan(.speed(Rational(1, 8), fps: Rational(30)), .flow)
        var whole = SlotSchedule(plan: p, sourceTimeBase: Rational(1, 90000))
        var batched = SlotSchedule(plan: p, sourceTimeBase: Rational(1, 90000))
        let (a, b) = (Self.times[0], Self.times[10])
        let all = whole.decide(earlier: a, later: b, limit: .max)
        var pieces: [SlotSchedule.Decision] = []
        while case let next = batched.decide(earlier: a, later: b, limit: 3), !next.isEmpty { pieces += next }
        #expect(all.count > 3 && pieces == all)
        #expect(batched.decide(earlier: a, later: b).isEmpty && batched.slot == whole.slot)
    }

    @Test func rampMakesPicturesOnlyWhereTheMapNeedsThem() throws {
        let p = try plan(.ramp(try TimeMap(parsing: "0-0.5@1,0.5-1@0.1,1-@1"), fps: Rational(30)), .flow)
        #expect(!p.needsNewFrames(segment: 0) && p.needsNewFrames(segment: 1) && !p.needsNewFrames(segment: 2))
        let all = try decisions(p)
        #expect(all.count == 15 + 150 + 30)
        for d in all where d.time < Rational(1, 2) || d.time >= Rational(1) {
            #expect(d.pick == .earlier, "slot \(d.slot) at \(d.time)")
        }
        let slow = all.filter { $0.time >= Rational(1, 2) && $0.time < Rational(1) }
        #expect(slow.count == 150)
        let made = slow.compactMap { d -> Double? in
            if case .between(let f) = d.pick { return f }
            return nil
        }
        // Slots 1/300 s apart: every 5th lands on a captured frame (5 slots = 2 frames), 4 are made.
        #expect(made.count == 120)
        for (f, expected) in zip(made, [0.4, 0.8, 0.2, 0.6]) { #expect(abs(f - expected) < 1e-9) }
    }

    /// `--reencode never` with a speed that needs new frames is refused, naming O/C.
    @Test func neverIsRefusedNamingTheSlowestLosslessSpeed() throws {
        let path = Fixtures.path("layered-120fps.mp4")
        let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
        let analysis = try InputAnalysis.analyze(path: path, fileSize: size, range: nil)
        let settings = ExportSettings(
            input: path, output: "/tmp/x.mp4", mode: .speed(Rational(1, 10), fps: Rational(60)), range: nil,
            audio: .mute, reencode: .never)
        #expect {
            _ = try ExportPlan.make(settings, analysis)
        } throws: { error in
            guard case .refused(let message) = error as? ExportFailure else { return false }
            return message.contains("slowest lossless speed at 60 fps: --speed 0.5")
                && message.contains("advances the source by 1/5 of a 120 fps frame")
        }
    }
}
