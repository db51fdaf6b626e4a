import Foundation
import HFRMedia
import HFRPipeline
import HFRPreview
import Synchronization

/// The live `hfr.record/1` members `/status` and the page show while recording: read from the
/// pipeline's counters on each request (any thread).
final class RecordPreviewStatus: Sendable {
    private struct Live {
        var settings: RecordSettings
        var stats: RecordStats
        var started: Date
        var triggers: TriggerBoard?
    }
    private let live = Locked<Live?>(nil)
    /// The capture → encoder queue's depth at the last status tick.
    let queueDepth = Atomic<Int>(0)

    /// From now on the members come from `stats` (the pipeline about to run).
    func attach(settings: RecordSettings, stats: RecordStats, triggers: TriggerBoard? = nil) {
        live.withLock { $0 = Live(settings: settings, stats: stats, started: Date(), triggers: triggers) }
    }

    func members() -> [(String, JSONValue)] {
        guard let l = live.withLock({ $0 }) else { return [("schema", .string("hfr.record/1"))] }
        let s = l.stats
        let captured = s.captured.load(ordering: .relaxed)
        let wall = Date().timeIntervalSince(l.started)
        let dropped = s.droppedBySource.load(ordering: .relaxed)
        let members: [(String, JSONValue)] = [
            ("schema", .string("hfr.record/1")), ("output", .string(l.settings.output)),
            ("width", .int(Int64(l.settings.capture.width))), ("height", .int(Int64(l.settings.capture.height))),
            ("frameRate", .string(l.settings.capture.frameRate.description)),
            ("temporalLayers", .int(Int64(l.settings.temporalLayers))), ("bitrate", .int(Int64(l.settings.bitrate))),
            ("framesCaptured", .int(Int64(captured))),
            ("framesEncoded", .int(Int64(s.encoded.load(ordering: .relaxed)))),
            ("framesDroppedLate", .int(Int64(s.droppedLate.load(ordering: .relaxed)))),
            ("framesMissingFromSource", .int(Int64(s.missingFromSource.load(ordering: .relaxed)))),
            ("framesDroppedByDevice", dropped >= 0 ? .int(Int64(dropped)) : .null),
            ("framesPerLayer", .array(s.layerCounts.prefix(l.settings.temporalLayers).map { .int(Int64($0)) })),
            ("audioSamples", .int(Int64(s.audioSamples.load(ordering: .relaxed)))),
            ("bytes", .int(Int64(s.bytes.load(ordering: .relaxed)))), ("wallSeconds", .rounded(wall)),
            ("achievedFps", .rounded(wall > 0 ? Double(captured) / wall : 0)),
            ("queueDepth", .int(Int64(queueDepth.load(ordering: .relaxed)))),
            ("maxQueueDepth", .int(Int64(s.maxQueueDepth.load(ordering: .relaxed)))),
            ("queueCapacity", .int(Int64(l.settings.queueCapacity))),
            ("freeDiskBytes", PreviewStart.freeBytes(near: l.settings.output).map { .int(Int64($0)) } ?? .null),
        ]
        guard let board = l.triggers else { return members }
        return members + [("triggers", Self.triggers(board))]
    }

    /// A triggered recording's live figures: its triggers, what fired, the clips written, and the
    /// motion detector's latest score beside its threshold.
    static func triggers(_ board: TriggerBoard) -> JSONValue {
        let s = board.settings
        var members: [(String, JSONValue)] = [
            ("kinds", .array(TriggerKind.allCases.filter { s.kinds.contains($0) }.map { .string($0.rawValue) })),
            ("preTrigger", .double(s.preTrigger.doubleValue)), ("postTrigger", .double(s.postTrigger.doubleValue)),
            ("fired", .int(Int64(board.fired))), ("clips", .int(Int64(board.clips))),
        ]
        if s.kinds.contains(.motion) {
            members += [("motionScore", .rounded(board.motionScore)), ("motionThreshold", .double(s.motionThreshold))]
        }
        return .object(members)
    }
}
