import HFRMedia

/// A triggered recording's clip: what it shows and why.
public struct ClipWindow: Sendable, Equatable {
    /// Where the clip's picture starts (trigger − pre-trigger, or the oldest key frame held),
    /// in seconds from the recording's first frame.
    public var start: Rational
    /// Where decoding starts: the key frame at or before `start` (its frames before `start` are
    /// decoded but hidden, by an MP4/MOV edit list).
    public var decodeStart: Rational
    /// Where the clip ends (the last trigger + post-trigger).
    public var end: Rational
    /// Every trigger inside the clip, in order.
    public var triggers: [TriggerEvent]
}

/// Decides which encoded packets go into which clip, from the packets as they reach the muxer and
/// the triggers as they come: a pre-trigger ring in RAM holds the last `pre` seconds of packets
/// from a key frame (and whatever a pending trigger still needs); a trigger at `t` asks for
/// `[t − pre, t + post]`; windows that overlap or touch become one clip. A clip opens once the
/// video has reached its start (so the key frame before it is known), is written from that key
/// frame (the ring, then packets as they come), and closes at its end once the audio has too.
///
/// Pure logic over an opaque `Item` (a packet), so its decisions can be tested without one.
struct ClipCutter<Item> {
    enum Action {
        case open(ClipWindow)
        case write(Item, isVideo: Bool)
        case close(ClipWindow)
    }

    private struct Entry {
        var item: Item
        var time: Rational
        var isKey: Bool
        var bytes: Int
    }

    /// One stream's packets in time order from `head` on; `cursor` is the next one the open clip
    /// looks at.
    private struct Ring {
        var entries: [Entry] = []
        var head = 0
        var cursor = 0
        var bytes = 0

        mutating func drop(before index: Int) {
            while head < index {
                bytes -= entries[head].bytes
                head += 1
            }
            if head > 1024, head * 2 > entries.count {
                entries.removeFirst(head)
                cursor = max(0, cursor - head)
                head = 0
            }
        }
    }

    let pre: Rational
    let post: Rational
    let hasAudio: Bool
    private var video = Ring()
    private var audio = Ring()
    /// Bytes the ring holds at most so far.
    private(set) var peakBytes = 0
    /// Windows asked for and not yet opened, in time order, none overlapping.
    private var pending: [ClipWindow] = []
    private var open: ClipWindow?
    /// The open clip's video has reached its end (and its audio, once a packet past the end came).
    private var videoEnded = false
    private var audioEnded = false

    init(pre: Rational, post: Rational, hasAudio: Bool) {
        self.pre = pre
        self.post = post
        self.hasAudio = hasAudio
    }

    /// Bytes the ring holds now.
    var heldBytes: Int { video.bytes + audio.bytes }

    /// Whether a clip is being written or waits to be.
    var isBusy: Bool { open != nil || !pending.isEmpty }

    /// A trigger: its window joins the one it overlaps, or waits for the video to reach it.
    mutating func trigger(_ event: TriggerEvent) -> [Action] {
        let start = max(Rational(0), event.time - pre)
        let window = ClipWindow(start: start, decodeStart: start, end: event.time + post, triggers: [event])
        if var clip = open, !videoEnded, window.start <= clip.end {
            clip.end = max(clip.end, window.end)
            clip.triggers.append(event)
            open = clip
            return []
        }
        let index = pending.firstIndex { $0.start > window.start } ?? pending.count
        pending.insert(window, at: index)
        // Merge neighbours that overlap or touch.
        var merged: [ClipWindow] = []
        for w in pending {
            if var last = merged.last, w.start <= last.end {
                last.end = max(last.end, w.end)
                last.triggers = (last.triggers + w.triggers).sorted { $0.time < $1.time }
                merged[merged.count - 1] = last
            } else {
                merged.append(w)
            }
        }
        pending = merged
        var actions: [Action] = []
        advance(&actions)
        return actions
    }

    /// A packet as it reaches the muxer: `time` is its start in seconds from the first frame.
    mutating func push(_ item: Item, time: Rational, isVideo: Bool, isKey: Bool, bytes: Int) -> [Action] {
        let entry = Entry(item: item, time: time, isKey: isVideo && isKey, bytes: bytes)
        if isVideo {
            video.entries.append(entry)
            video.bytes += bytes
        } else {
            audio.entries.append(entry)
            audio.bytes += bytes
        }
        peakBytes = max(peakBytes, heldBytes)
        var actions: [Action] = []
        advance(&actions)
        prune()
        return actions
    }

    /// The end of the recording: the open clip closes, and a window still waiting is written
    /// with what the ring holds.
    mutating func finish() -> [Action] {
        var actions: [Action] = []
        advance(&actions)
        while open != nil || !pending.isEmpty {
            if open == nil {
                openNext(&actions)
                if open == nil { pending.removeFirst() } else { write(&actions) }
            }
            close(&actions)
        }
        return actions
    }

    /// Writes what the open clip can take, closes it at its end, and opens the next window the
    /// video has reached.
    private mutating func advance(_ actions: inout [Action]) {
        while true {
            if open == nil {
                guard let first = pending.first, let latest = video.entries.last?.time, latest >= first.start else {
                    return
                }
                openNext(&actions)
                if open == nil { return }
            }
            write(&actions)
            guard videoEnded, audioEnded || !hasAudio else { return }
            close(&actions)
        }
    }

    /// Writes the packets that arrived for the open clip: video before its end (and notes when the
    /// video has passed it), audio from the decode start to the end.
    private mutating func write(_ actions: inout [Action]) {
        guard let clip = open else { return }
        while !videoEnded, video.cursor < video.entries.count {
            let entry = video.entries[video.cursor]
            video.cursor += 1
            if entry.time >= clip.end {
                videoEnded = true
                break
            }
            actions.append(.write(entry.item, isVideo: true))
        }
        while !audioEnded, audio.cursor < audio.entries.count {
            let entry = audio.entries[audio.cursor]
            if entry.time >= clip.end {
                audioEnded = true
                break
            }
            audio.cursor += 1
            if entry.time >= clip.decodeStart { actions.append(.write(entry.item, isVideo: false)) }
        }
    }

    /// Opens the first pending window from the last key frame at or before its start (else the
    /// oldest one held); a window waits while no key frame is held at all (nothing encoded yet).
    private mutating func openNext(_ actions: inout [Action]) {
        guard var window = pending.first else { return }
        var key: Int?
        for i in video.head..<video.entries.count where video.entries[i].isKey {
            if video.entries[i].time > window.start, key != nil { break }
            key = i
        }
        guard let key else { return }
        pending.removeFirst()
        window.decodeStart = video.entries[key].time
        window.start = max(window.start, window.decodeStart)
        open = window
        videoEnded = false
        audioEnded = false
        video.cursor = key
        audio.cursor = audio.head
        actions.append(.open(window))
    }

    private mutating func close(_ actions: inout [Action]) {
        if let clip = open { actions.append(.close(clip)) }
        open = nil
    }

    /// Lets go of packets no clip can need: video before the last key frame at or before
    /// min(latest video − pre, the first pending window's start), and not yet written to the open
    /// clip; audio more than `pre` + 2 s older than the latest audio (a clip shows no audio from
    /// before its window's start, which is at most `pre` before its trigger), nor needed by a
    /// pending window. Audio is pruned by its own clock: video may pause between clips (a raw
    /// ring encodes only them) while audio goes on.
    private mutating func prune() {
        if let latest = video.entries.last?.time {
            var keep = latest - pre
            if let first = pending.first { keep = min(keep, first.start) }
            let limit = open == nil ? video.entries.count : video.cursor
            var drop = video.head
            for i in video.head..<limit where video.entries[i].isKey {
                if video.entries[i].time > keep { break }
                drop = i
            }
            video.drop(before: drop)
        }
        if let latest = audio.entries.last?.time {
            var keep = latest - pre - Rational(2)
            if let first = pending.first { keep = min(keep, first.start) }
            var audioDrop = audio.head
            let audioLimit = open == nil ? audio.entries.count : audio.cursor
            while audioDrop < audioLimit, audio.entries[audioDrop].time < keep { audioDrop += 1 }
            audio.drop(before: audioDrop)
        }
        peakBytes = max(peakBytes, heldBytes)
    }
}
