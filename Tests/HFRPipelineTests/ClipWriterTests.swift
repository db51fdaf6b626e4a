import Foundation
import HFRMedia
import Testing

@testable import HFRPipeline

/// One clip of a triggered recording, written from the encoder's packets of 160x120 frames at
/// 30 fps (a key frame a second): where its picture starts, the frames it shows and misses, its
/// triggers' times, and the file made of it.
@Suite struct ClipWriterTests {
    static let rate = Rational(30)

    /// A writer of `name` in `directory` for `window`, given the packets of frames `numbers`.
    static func write(
        _ numbers: [Int], window: ClipWindow, name: String, in directory: String
    ) throws -> (ClipWriter.Finished, RecordSettings) {
        let settings = PipelinePictures.settings(output: directory + "/" + name)
        let (items, format) = try PipelinePictures.encode(numbers, settings: settings)
        #expect(items.count == numbers.count)
        let writer = ClipWriter(path: settings.output, window: window, settings: settings, format: format)
        for item in items { writer.write(item) }
        return (writer.finish(window: window, wallOrigin: 1_000_000), settings)
    }

    static func window(start: Rational, decodeStart: Rational = Rational(0), triggers: [Rational] = []) -> ClipWindow {
        ClipWindow(
            start: start, decodeStart: decodeStart, end: start + Rational(1),
            triggers: triggers.map { TriggerEvent(time: $0, kind: .key) })
    }

    /// An MP4 clip starts on the frame on screen at its window's start (16/30 s for 0.55 s), and
    /// its triggers are timed from there; the frames before it are its preroll.
    @Test func anMP4ClipShowsFromTheFrameOnScreenAtItsStart() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (finished, _) = try Self.write(
            Array(0..<30), window: Self.window(start: Rational(55, 100), triggers: [Rational(1)]), name: "a.mp4",
            in: dir)
        let report = finished.report
        #expect(report.failure == nil)
        #expect(report.start == Rational(16, 30))
        #expect(report.end == Rational(1))
        #expect(report.frames == 14)
        #expect(report.missingFrames == 0)
        #expect(report.triggers == [TriggerEvent(time: Rational(14, 30), kind: .key)])
        #expect(report.firstFrameWallMicroseconds == Int64(1_533_333))
        #expect(finished.preroll == Rational(16, 30))
        #expect(finished.isWritten)
    }

    /// Matroska has no edit lists: its clip shows from the key frame it decodes from.
    @Test func aMatroskaClipShowsFromItsKeyFrame() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (finished, _) = try Self.write(
            Array(0..<30), window: Self.window(start: Rational(55, 100)), name: "a.mkv", in: dir)
        #expect(finished.report.start == Rational(0))
        #expect(finished.report.frames == 30)
        #expect(finished.preroll == Rational(0))
    }

    /// Frames the camera dropped are empty slots between the frames shown.
    @Test func theFramesMissingBetweenShownFramesAreCounted() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (finished, _) = try Self.write(
            [0, 1, 2, 5, 6, 9], window: Self.window(start: Rational(0)), name: "gaps.mp4", in: dir)
        #expect(finished.report.frames == 6)
        #expect(finished.report.missingFrames == 4)
        #expect(finished.report.end == Rational(10, 30))
    }

    /// Finalizing makes the clip file and removes the fragmented one.
    @Test func finalizingLeavesOnlyTheClip() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (finished, settings) = try Self.write(
            Array(0..<20), window: Self.window(start: Rational(0)), name: "clip.mp4", in: dir)
        #expect(try PipelinePictures.contents(dir) == ["clip.partial.mp4"])
        let report = ClipWriter.finalize(finished, settings: settings)
        #expect(report.failure == nil)
        #expect(try PipelinePictures.contents(dir) == ["clip.mp4"])
    }

    /// A window no frame reached leaves no file, and its report says why.
    @Test func aClipWithoutFramesLeavesNoFile() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (finished, settings) = try Self.write(
            [], window: Self.window(start: Rational(0)), name: "none.mp4", in: dir)
        #expect(!finished.isWritten)
        let report = ClipWriter.finalize(finished, settings: settings)
        #expect(report.failure == "no frame was captured inside its window")
        #expect(try PipelinePictures.contents(dir) == [])
    }
}
