import Foundation
import HFRBatch
import HFRMedia
import HFRTestSupport
import Testing

/// Where split jobs are cut (`SplitPoints`) and how a manifest asks for it.
struct SplitPlanTests {
    /// Keyframes every second of a 10 s video, and one at 4.5 s.
    static let points = SplitPoints(
        keyframes: ((0...9).map { Rational(Int64($0)) } + [Rational(9, 2)]).sorted(), end: Rational(10))

    @Test func partsAreCutAtTheKeyframesNearestEvenShares() {
        let ranges = Self.points.ranges(count: 4, start: Rational(0), end: nil)
        #expect(ranges.map(\.start) == [Rational(0), Rational(2), Rational(5), Rational(7)])
        #expect(ranges.map(\.end) == [Rational(2), Rational(5), Rational(7), nil])
        let three = Self.points.ranges(count: 3, start: Rational(0), end: nil)
        #expect(three.map(\.start) == [Rational(0), Rational(3), Rational(7)])
    }

    /// A job's own range is split within it, its end kept; a tie goes to the earlier keyframe.
    @Test func aJobsRangeIsSplitInsideIt() {
        let ranges = Self.points.ranges(count: 2, start: Rational(1), end: Rational(6))
        #expect(ranges.map(\.start) == [Rational(1), Rational(3)])
        #expect(ranges.map(\.end) == [Rational(3), Rational(6)])
    }

    /// Fewer keyframes than parts asked: as many parts as there are cuts; none: one part.
    @Test func fewKeyframesGiveFewerParts() {
        let sparse = SplitPoints(keyframes: [Rational(0), Rational(5)], end: Rational(10))
        #expect(sparse.ranges(count: 4, start: Rational(0), end: nil).count == 2)
        let one = SplitPoints(keyframes: [Rational(0)], end: Rational(10))
        #expect(one.ranges(count: 4, start: Rational(0), end: nil).count == 1)
    }

    @Test func autoCountsPartsOfTheSegmentLength() {
        #expect(Self.points.count(every: Rational(3), start: Rational(0), end: nil) == 3)
        #expect(Self.points.count(every: Rational(60), start: Rational(0), end: nil) == 1)
        #expect(Self.points.count(every: Rational(1), start: Rational(2), end: Rational(6)) == 4)
    }

    @Test(arguments: [
        (#""split": 0"#, "jobs[0].split: must be a whole number of parts from 1 to 256, not 0"),
        (#""split": 2.5"#, "jobs[0].split: must be a whole number of parts from 1 to 256, not 2.5"),
        (#""split": "many""#, "jobs[0].split: must be a number of parts (2, 4, …) or \"auto\""),
        (#""split": true"#, "jobs[0].split: must be a number of parts (2, 4, …) or \"auto\""),
    ])
    func aBadSplitIsRefusedNamingTheField(member: String, message: String) throws {
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path("a.mp4"), contents: Data("x".utf8)))
        let text =
            #"{"schema": "hfr.batch/1", "jobs": [{"input": "a.mp4", "output": "o.mp4", "conform": 30, "#
            + member + "}]}"
        #expect {
            _ = try BatchManifest(text: text, path: dir.path("batch.json"), table: BatchManifestTests.table)
        } throws: { error in
            "\((error as? ManifestError)?.describe(manifest: "m.json") ?? "")".contains(message)
        }
    }

    @Test func splitBelongsToAJobNotToDefaults() throws {
        let dir = try TemporaryDirectory()
        let text =
            #"{"schema": "hfr.batch/1", "defaults": {"split": 2}, "jobs": [{"input": "a.mp4", "output": "o.mp4"}]}"#
        #expect {
            _ = try BatchManifest(text: text, path: dir.path("batch.json"), table: BatchManifestTests.table)
        } throws: { error in
            "\((error as? ManifestError)?.describe(manifest: "m.json") ?? "")".contains(
                "defaults.split: belongs to a job")
        }
    }

    /// An input that is not a video cannot be split: refused before any job, naming the field.
    @Test func anInputWithoutVideoCannotBeSplit() throws {
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path("a.mp4"), contents: Data("not a video".utf8)))
        let text =
            #"{"schema": "hfr.batch/1", "jobs": [{"input": "a.mp4", "output": "o.mp4", "conform": 30, "split": 2}]}"#
        #expect {
            _ = try BatchManifest(text: text, path: dir.path("batch.json"), table: BatchManifestTests.table)
        } throws: { error in
            "\((error as? ManifestError)?.describe(manifest: "m.json") ?? "")".contains(
                "jobs[0].split: a.mp4 cannot be split")
        }
    }
}
