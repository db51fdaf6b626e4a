import Foundation
import HFRInterpolation
import HFRMedia
import HFRProbe
import HFRTestSupport
import Testing

@testable import HFRExport

/// `--fill-drops` on the 2 s 120 fps fixture's plan with frames taken out of its times (k/120 s):
/// which output slots fill the gaps, what each shows, and how many frames the capture dropped.
@Suite struct DropFillTests {
    /// Frames 30, 31 and 100 dropped: gaps of 3 and 2 periods.
    static let dropped: Set<Int64> = [30, 31, 100]
    static let times = (0..<240).filter { !dropped.contains($0) }.map { Rational($0, 120) }

    func plan(
        _ mode: ExportSettings.Mode, _ fill: ExportSettings.DropFill, range: (Rational, Rational?)? = nil
    ) throws -> ExportPlan {
        let path = Fixtures.path("layered-120fps.mp4")
        let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
        let analysis = try InputAnalysis.analyze(path: path, fileSize: size, range: range)
        var settings = ExportSettings(
            input: path, output: "/tmp/x.mp4", mode: mode, range: range, audio: .mute, reencode: .auto)
        settings.fillDrops = fill
        var plan = try ExportPlan.make(settings, analysis)
        var filled = FrameRanges()
        plan.droppedFrames = zip(Self.times, Self.times.dropFirst()).reduce(0) {
            $0 + plan.filledSlots(from: $1.0, to: $1.1, into: &filled)
        }
        plan.filledDrops = filled
        return plan
    }

    func decisions(_ plan: ExportPlan) throws -> [SlotSchedule.Decision] {
        var all: [SlotSchedule.Decision] = []
        try SlotSchedule.forEachDecision(plan: plan, sourceTimeBase: Rational(1, 90000), times: Self.times) {
            all.append($0)
        }
        return all
    }

    /// Every frame kept (C·S/O = 1): one output frame per dropped one, at its place; `repeat`
    /// shows the frame before the gap, `flow` a picture the right fraction across it. Copying
    /// cannot insert frames: the plan re-encodes and says why.
    @Test(arguments: ExportSettings.DropFill.allCases)
    func aConformFillsEveryDroppedFrame(fill: ExportSettings.DropFill) throws {
        let p = try plan(.conform(fps: Rational(30)), fill)
        #expect(p.layers == nil && p.reencodeReason == ExportPlan.fillDropsReason)
        #expect(p.dropFill == (fill == .flow ? .flow : .repeat))
        #expect(p.synthesis == nil, "no frames between captured ones: --interpolate has nothing to make")
        #expect(p.filledDrops.description == "30-31,100" && p.droppedFrames == 3)
        let all = try decisions(p)
        #expect(all.map(\.slot) == Array(0..<240), "a constant rate: every slot of 2 s at 120 fps of source")
        let fractions: [Int64: Double] = [30: 1.0 / 3, 31: 2.0 / 3, 100: 0.5]
        for d in all {
            #expect(d.isFilledDrop == Self.dropped.contains(d.slot), "slot \(d.slot)")
            guard let f = fractions[d.slot] else {
                #expect(d.pick == .earlier, "slot \(d.slot)")
                continue
            }
            if fill == .repeat {
                #expect(d.pick == .earlier)
            } else if case .between(let x) = d.pick {
                #expect(abs(x - f) < 1e-9, "slot \(d.slot): \(x)")
            } else {
                Issue.record("slot \(d.slot): \(d.pick)")
            }
            #expect(!d.showsNewPicture(p), "counted as a filled drop, not as interpolated")
        }
    }

    /// Every second captured frame (--fps 60): only the slots with no captured frame within half a
    /// period are filled (the one at frame 30); frame 100's slot falls in its gap too. The others
    /// show their captured frame, as without the option.
    @Test func aDecimatingExportFillsOnlyTheSlotsInAGap() throws {
        let p = try plan(.realTime(fps: Rational(60)), .repeat)
        #expect(p.filledDrops.description == "15,50" && p.droppedFrames == 3)
        let all = try decisions(p)
        #expect(all.count == 120)
        #expect(all.filter(\.isFilledDrop).map(\.slot) == [15, 50])
    }

    /// Half speed at 120 fps with flow: new pictures between captured frames as ever, counted as
    /// interpolated; those in a gap (farther than half a period from a captured frame) are fills.
    @Test func slowMotionFillsTheGapsBesideItsInterpolatedFrames() throws {
        let p = try plan(.speed(Rational(1, 2), fps: Rational(120)), .flow)
        #expect(p.synthesis == .flow)
        // Gap 29-32: slots at 30, 30.5, 31 periods; gap 99-101: at 100.
        #expect(p.filledDrops.description == "60-62,200")
        let all = try decisions(p)
        let filled = all.filter(\.isFilledDrop)
        #expect(filled.map(\.slot) == [60, 61, 62, 200])
        #expect(filled.allSatisfy { if case .between = $0.pick { true } else { false } })
        #expect(all.filter { $0.showsNewPicture(p) }.count > 100)
    }

    /// A range counts only the drops within it, and numbers the filled frames from its start.
    @Test func aRangeCountsTheDropsWithinIt() throws {
        let p = try plan(.conform(fps: Rational(30)), .repeat, range: (Rational(1, 5), Rational(1, 2)))
        // Source 0.2-0.5 s: frames 24-59; frames 30 and 31 are its 7th and 8th.
        #expect(p.filledDrops.description == "6-7" && p.droppedFrames == 2)
    }

    /// A camera's jitter is no drop: a gap under one and a half periods fills nothing.
    @Test func jitterIsNoDrop() throws {
        let p = try plan(.conform(fps: Rational(30)), .flow)
        var none = FrameRanges()
        #expect(p.filledSlots(from: Rational(10, 120), to: Rational(1149, 120_000), into: &none) == 0)
        #expect(none.isEmpty)
        #expect(p.isDrop(from: Rational(10, 120), to: Rational(12, 120)))
    }
}
