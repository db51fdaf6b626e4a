import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// The mux stage of a triggered recording (`--pre-trigger`, `--trigger`): instead of one file,
/// the encoded packets go through a `ClipCutter` (the pre-trigger ring) into a clip per trigger
/// window. Each clip is written as a crash-safe fragmented MP4 like a recording, then finalized
/// on a thread of its own (so the ring keeps taking packets meanwhile): key frame first, the
/// frames before the window's start hidden by an edit list, its triggers and its first frame's
/// wall-clock time in its tags.
final class ClipStage {
    struct Format {
        var width: Int
        var height: Int
        var parameterSets: [UInt8]
        var videoTimeBase: Rational
        var audio: (parameters: CodecParameters, timeBase: Rational, priming: Int64)?
    }

    private let settings: RecordSettings
    private let triggers: TriggerSettings
    private let board: TriggerBoard
    private let format: Format
    private let stats: RecordStats
    private let force: Bool
    /// Asks the recording to stop (`--clips N` reached).
    private let stop: @Sendable () -> Void
    private var cutter: ClipCutter<MuxItem>
    /// Where the triggers come from: the board (set when a raw pre-trigger ring takes them first).
    var events: () -> [TriggerEvent]
    private var writer: ClipWriter?
    /// The last clip number used (names of existing files are skipped), and the clips opened.
    private var number = 0
    private var opened = 0
    private var finalizers: [StageThread<ClipReport>] = []

    init(
        settings: RecordSettings, board: TriggerBoard, format: Format, stats: RecordStats, force: Bool,
        stop: @escaping @Sendable () -> Void
    ) {
        self.settings = settings
        triggers = board.settings
        self.board = board
        self.format = format
        self.stats = stats
        self.force = force
        self.stop = stop
        cutter = ClipCutter(pre: triggers.preTrigger, post: triggers.postTrigger, hasAudio: format.audio != nil)
        events = { board.take() }
    }

    /// The most bytes the pre-trigger ring held.
    var peakRingBytes: Int { cutter.peakBytes }

    /// Cuts clips from the packets until the encoders finish; then waits for every clip to be
    /// finalized and returns them in order.
    func run(
        _ mux: BoundedQueue<MuxItem>, status: ((RecordStats, Int) -> Void)?, level: () -> (frames: Int, bytes: Int)
    ) -> [ClipReport] {
        var lastStatus = Date.distantPast
        while let item = mux.pop() {
            for event in events() { perform(cutter.trigger(event)) }
            let (time, isVideo, isKey, bytes) = describe(item)
            perform(cutter.push(item, time: time, isVideo: isVideo, isKey: isKey, bytes: bytes))
            if let status, Date().timeIntervalSince(lastStatus) >= 0.25 {
                let level = level()
                stats.heldBytes.store(level.bytes, ordering: .relaxed)
                status(stats, level.frames)
                lastStatus = Date()
            }
        }
        for event in events() { perform(cutter.trigger(event)) }
        perform(cutter.finish())
        return finalizers.map { $0.join() }
    }

    /// An item's start (seconds from the first frame), kind, key-frame flag and size.
    private func describe(_ item: MuxItem) -> (Rational, Bool, Bool, Int) {
        switch item {
        case .video(let packet, let timeBase):
            return (Rational.seconds(packet.pts ?? 0, in: timeBase), true, packet.isKeyframe, packet.size)
        case .audio(let packet, let timeBase):
            let priming = format.audio?.priming ?? 0
            return (Rational.seconds((packet.pts ?? 0) - priming, in: timeBase), false, false, packet.size)
        }
    }

    private func perform(_ actions: [ClipCutter<MuxItem>.Action]) {
        for action in actions {
            switch action {
            case .open(let window): open(window)
            case .write(let item, _): writer?.write(item)
            case .close(let window): close(window)
            }
        }
    }

    private func open(_ window: ClipWindow) {
        if let limit = triggers.clipLimit, opened >= limit { return }
        opened += 1
        number += 1
        var path = triggers.names.name(number)
        // Without --force a clip never replaces a file: it takes the next free number.
        while !force,
            FileSystem.access(path, F_OK) == 0 || FileSystem.access(RecordSettings.partialPath(for: path), F_OK) == 0
        {
            number += 1
            path = triggers.names.name(number)
        }
        writer = ClipWriter(path: path, window: window, settings: settings, format: format)
    }

    private func close(_ window: ClipWindow) {
        guard let writer else { return }
        self.writer = nil
        let finished = writer.finish(window: window, wallOrigin: stats.firstFrameWallMicroseconds)
        let settings = settings
        let board = board
        finalizers.append(
            StageThread(name: "clip") {
                let clip = ClipWriter.finalize(finished, settings: settings)
                if clip.failure == nil { board.noteClip() }
                return clip
            })
        if let limit = triggers.clipLimit, opened >= limit { stop() }
    }
}
