import Foundation
import HFRExport
import HFRMedia
import HFRTestSupport
import Testing

/// Plans against the committed fixtures: which cuts are lossless, what is refused and why.
@Suite struct ExportPlanTests {
    func plan(_ fixture: String, _ mode: ExportSettings.Mode, reencode: ExportSettings.ReencodePolicy = .never)
        throws -> ExportPlan
    {
        let path = Fixtures.path(fixture)
        let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
        let analysis = try InputAnalysis.analyze(path: path, fileSize: size, range: nil)
        return try ExportPlan.make(
            ExportSettings(
                input: path, output: "/tmp/x.mp4", mode: mode, range: nil, audio: .spectral, reencode: reencode),
            analysis)
    }

    @Test(arguments: [(120, 2), (60, 1), (30, 0)])
    func layeredFixtureReachesPowersOfTwo(fps: Int, maxLevel: Int) throws {
        let p = try plan("layered-120fps.mp4", .realTime(fps: Rational(Int64(fps))))
        #expect(p.layers?.maxLevels == [maxLevel])
        #expect(p.layers?.usesTemporalID == true)
        #expect(p.copiesAudio)
    }

    @Test func oddRatioIsRefusedWithTheNearestLosslessRate() throws {
        #expect {
            _ = try plan("layered-120fps.mp4", .realTime(fps: Rational(50)))
        } throws: { error in
            guard case .refused(let message) = error as? ExportFailure else { return false }
            return message.contains("nearest lossless: --fps 60")
        }
        let auto = try plan("layered-120fps.mp4", .realTime(fps: Rational(50)), reencode: .auto)
        #expect(auto.layers == nil)
        #expect(auto.reencodeReason?.contains("2.4") == true)
    }

    @Test func conformIsAlwaysLossless() throws {
        let p = try plan("x264-bframes.mp4", .conform(fps: Rational(15)))
        #expect(p.layers != nil)
        #expect(p.outputDuration == Rational(4))
        #expect(!p.copiesAudio)
    }

    @Test func nonReferenceFramesThatAreNotEvenlySpacedDoNotCount() throws {
        // x264 keeps 25 of 60 frames as references: not every 2nd frame, so 15 fps needs re-encoding.
        #expect(throws: ExportFailure.self) { try plan("x264-bframes.mp4", .realTime(fps: Rational(15))) }
    }

    @Test func twoLayerMatroskaHalvesLosslessly() throws {
        let p = try plan("layered-60fps-2layers.mkv", .realTime(fps: Rational(30)))
        #expect(p.layers?.maxLevels == [0])
    }
}
