import Foundation
import HFRMedia
import Synchronization
import Testing

@testable import HFRPipeline

/// The mux stage of a triggered recording, on 3 s of the encoder's packets of 160x120 frames at
/// 30 fps (a key frame a second) with 0.5 s before and after each trigger: a clip per window,
/// named by number, finalized, limited by `--clips`.
@Suite struct ClipStageTests {
    /// A clip stage's run over frames 0 to 89, a trigger at each of `triggers` handed in when the
    /// packet `arrives` later reaches the stage (a trigger is seen after it happened).
    static func run(
        in directory: String, triggers: [(time: Rational, arrives: Int)], clipLimit: Int? = nil, force: Bool = false
    ) throws -> (clips: [ClipReport], stops: Int) {
        let settings = PipelinePictures.settings(output: directory + "/clip.mp4")
        var triggerSettings = TriggerSettings(
            preTrigger: Rational(1, 2), postTrigger: Rational(1, 2), kinds: [.key],
            names: ClipNames(template: directory + "/clip.mp4"))
        triggerSettings.clipLimit = clipLimit
        let board = TriggerBoard(settings: triggerSettings)
        let (items, format) = try PipelinePictures.encode(Array(0..<90), settings: settings)
        let mux = BoundedQueue<MuxItem>(capacity: items.count)
        for item in items { _ = mux.push(item) }
        mux.finish()
        let stops = Atomic<Int>(0)
        let stage = ClipStage(
            settings: settings, board: board, format: format, stats: RecordStats(), force: force,
            stop: { stops.add(1, ordering: .relaxed) })
        var seen = 0
        stage.events = {
            seen += 1
            return triggers.filter { $0.arrives == seen }.map { TriggerEvent(time: $0.time, kind: .key) }
        }
        let clips = stage.run(mux, status: nil) { (0, 0) }
        return (clips, stops.load(ordering: .relaxed))
    }

    /// Video packets in the file at `path`.
    static func videoPackets(_ path: String) throws -> Int {
        let demuxer = try Demuxer(url: path)
        let packet = try Packet()
        let video = demuxer.streams.first { $0.kind == .video }?.index
        var count = 0
        while try demuxer.read(into: packet) {
            if packet.streamIndex == video { count += 1 }
        }
        return count
    }

    /// A trigger at 1.5 s, seen 0.4 s later: one clip of [1 s, 2 s) from the key frame at 1 s,
    /// finalized (no fragmented file left), its trigger at 0.5 s into it.
    @Test func aTriggerMakesAClipOfItsWindow() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (clips, stops) = try Self.run(in: dir, triggers: [(Rational(3, 2), 57)])
        #expect(clips.count == 1)
        let clip = try #require(clips.first)
        #expect(clip.failure == nil)
        #expect(clip.path == dir + "/clip-001.mp4")
        #expect(clip.start == Rational(1))
        #expect(clip.frames == 30)
        #expect(clip.triggers == [TriggerEvent(time: Rational(1, 2), kind: .key)])
        #expect(try PipelinePictures.contents(dir) == ["clip-001.mp4"])
        #expect(try Self.videoPackets(clip.path) == 30)
        #expect(stops == 0)
    }

    /// A trigger inside a clip's window extends it; one past it makes the next clip.
    @Test func triggersExtendAClipOrMakeTheNext() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (clips, _) = try Self.run(
            in: dir, triggers: [(Rational(1, 2), 20), (Rational(4, 5), 30), (Rational(5, 2), 80)])
        #expect(clips.map(\.path) == [dir + "/clip-001.mp4", dir + "/clip-002.mp4"])
        #expect(clips.map(\.triggers.count) == [2, 1])
        #expect(clips.map(\.end) == [Rational(13, 10), Rational(3)])
        #expect(clips.allSatisfy { $0.failure == nil })
    }

    /// `--clips 1`: the first clip asks the recording to stop; a later window makes no clip.
    @Test func theClipLimitStopsTheRecording() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (clips, stops) = try Self.run(
            in: dir, triggers: [(Rational(1, 2), 20), (Rational(5, 2), 80)], clipLimit: 1)
        #expect(clips.map(\.path) == [dir + "/clip-001.mp4"])
        #expect(stops == 1)
        #expect(try PipelinePictures.contents(dir) == ["clip-001.mp4"])
    }

    /// Without --force a clip never replaces a file: it takes the next free number.
    @Test func aClipTakesTheNextFreeNumber() throws {
        let dir = try PipelinePictures.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/clip-001.mp4", contents: Data("mine".utf8))
        let (clips, _) = try Self.run(in: dir, triggers: [(Rational(3, 2), 57)])
        #expect(clips.map(\.path) == [dir + "/clip-002.mp4"])
        #expect(FileManager.default.contents(atPath: dir + "/clip-001.mp4") == Data("mine".utf8))
    }
}
