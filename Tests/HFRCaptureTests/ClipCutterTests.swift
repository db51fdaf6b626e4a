import HFRMedia
import Testing

@testable import HFRPipeline

/// The pre-trigger ring's decisions (issue 29), on a simulated stream: 120 fps video with a key
/// frame every second and 1024-sample audio packets at 48 kHz, arriving as a recording's do
/// (audio ahead of the video by the encoder queue's lag), with triggers at chosen times.
@Suite struct ClipCutterTests {
    /// A packet's stream and start time (in 1/1000 s, so the expectations read as times).
    struct Item: Equatable {
        var isVideo: Bool
        var millis: Int
    }

    /// What the cutter wrote, clip by clip.
    struct Clip {
        var window: ClipWindow
        var items: [Item] = []
        var closed = false
    }

    /// Runs `seconds` of stream through a cutter; `triggers` are handed in when the video reaches
    /// their `arrives` time (the muxer sees a trigger later than it happened).
    static func run(
        seconds: Int, pre: Rational = Rational(1), post: Rational = Rational(1), audioLead: Int = 300,
        triggers: [(time: Rational, arrives: Rational)], finishEarly: Rational? = nil
    ) -> (clips: [Clip], peak: Int) {
        var cutter = ClipCutter<Item>(pre: pre, post: post, hasAudio: true)
        var clips: [Clip] = []
        func apply(_ actions: [ClipCutter<Item>.Action]) {
            for action in actions {
                switch action {
                case .open(let window): clips.append(Clip(window: window))
                case .write(let item, _): clips[clips.count - 1].items.append(item)
                case .close(let window):
                    // The window as it closed: triggers inside it may have extended it.
                    clips[clips.count - 1].window = window
                    clips[clips.count - 1].closed = true
                }
            }
        }
        var pending = triggers.sorted { $0.arrives < $1.arrives }
        var audioSample = 0
        for frame in 0..<(seconds * 120) {
            let time = Rational(Int64(frame), 120)
            if let stop = finishEarly, time >= stop { break }
            while let t = pending.first, t.arrives <= time {
                apply(cutter.trigger(TriggerEvent(time: t.time, kind: .signal)))
                pending.removeFirst()
            }
            // Audio runs `audioLead` ms ahead of the video it arrives with.
            let videoMillis = frame * 1000 / 120
            while audioSample * 1000 / 48000 < videoMillis + audioLead {
                let millis = audioSample * 1000 / 48000
                apply(
                    cutter.push(
                        Item(isVideo: false, millis: millis), time: Rational(Int64(audioSample), 48000),
                        isVideo: false, isKey: false, bytes: 200))
                audioSample += 1024
            }
            apply(
                cutter.push(
                    Item(isVideo: true, millis: videoMillis), time: time, isVideo: true, isKey: frame % 120 == 0,
                    bytes: frame % 120 == 0 ? 20000 : 2000))
        }
        apply(cutter.finish())
        return (clips, cutter.peakBytes)
    }

    /// n/d seconds.
    static func t(_ n: Int64, _ d: Int64 = 1) -> Rational { Rational(n, d) }

    @Test func aTriggerKeepsItsWindowFromTheKeyFrameBefore() throws {
        let (clips, _) = Self.run(seconds: 6, triggers: [(time: Self.t(7, 2), arrives: Self.t(37, 10))])
        try #require(clips.count == 1)
        let clip = clips[0]
        #expect(clip.closed)
        #expect(clip.window.start == Self.t(5, 2))
        #expect(clip.window.decodeStart == Self.t(2))
        #expect(clip.window.end == Self.t(9, 2))
        let video = clip.items.filter { $0.isVideo }.map(\.millis)
        // From the key frame at 2 s to the last frame before 4.5 s, each once, in order.
        #expect(video.first == 2000 && video.count == 300 && video == video.sorted())
        #expect(video.last == 4491)
        let audio = clip.items.filter { !$0.isVideo }.map(\.millis)
        #expect(audio.first.map { $0 >= 2000 && $0 < 2022 } == true)
        #expect(audio.last.map { $0 < 4500 && $0 >= 4478 } == true)
    }

    @Test func overlappingTriggersMakeOneClipAndSeparateOnesTwo() throws {
        let (merged, _) = Self.run(
            seconds: 8,
            triggers: [(time: Self.t(3), arrives: Self.t(31, 10)), (time: Self.t(7, 2), arrives: Self.t(36, 10))])
        try #require(merged.count == 1)
        #expect(merged[0].window.triggers.map(\.time) == [Self.t(3), Self.t(7, 2)])
        #expect(merged[0].window.end == Self.t(9, 2))
        #expect(merged[0].items.filter { $0.isVideo }.count == 300)
        let (separate, _) = Self.run(seconds: 9, triggers: [(Self.t(2), Self.t(2)), (Self.t(6), Self.t(61, 10))])
        try #require(separate.count == 2)
        #expect(separate.map(\.window.start) == [Self.t(1), Self.t(5)])
        #expect(separate.map { $0.items.filter { $0.isVideo }.count } == [240, 240])
        #expect(separate.allSatisfy { $0.closed })
    }

    @Test func theRingHoldsOnlyThePreTriggerSpan() {
        // No trigger: the ring lets go of everything before the key frame at or before now − pre.
        let (clips, peak) = Self.run(seconds: 20, triggers: [])
        #expect(clips.isEmpty)
        // At most a second of pre-trigger plus one GOP of video (and the next key frame, as it
        // arrives), and the audio beside them (2.3 s of 47 packets a second).
        let gop = 20000 + 119 * 2000
        #expect(peak <= 2 * gop + 20000 + 3 * 47 * 200, "peak \(peak)")
        #expect(peak >= 2 * gop, "peak \(peak)")
    }

    /// A raw ring encodes only clips: between them audio goes on alone, and the ring still
    /// lets go of it (it held all of it before).
    @Test func audioAloneIsHeldOnlyForThePreTriggerSpan() {
        var cutter = ClipCutter<Int>(pre: Rational(1), post: Rational(1), hasAudio: true)
        for packet in 0..<(60 * 47) {
            _ = cutter.push(
                packet, time: Rational(Int64(packet * 1024), 48000), isVideo: false, isKey: false, bytes: 200)
        }
        // 1 s + 2 s of 47 packets of 200 bytes, and the one arriving.
        #expect(cutter.heldBytes <= 3 * 47 * 200 + 2 * 200, "\(cutter.heldBytes)")
    }

    @Test func aTriggerBeforeTheRingStartsAtItsOldestKeyFrameAndTheEndClosesAClip() throws {
        // A trigger at 0.2 s with 1 s before: the clip starts at 0 (nothing older exists).
        let (early, _) = Self.run(seconds: 3, triggers: [(Self.t(1, 5), Self.t(1, 5))])
        try #require(early.count == 1)
        #expect(early[0].window.start == Self.t(0) && early[0].window.decodeStart == Self.t(0))
        // Stopped 0.5 s after a trigger: its clip is closed with what was captured.
        let (cut, _) = Self.run(seconds: 10, triggers: [(Self.t(3), Self.t(3))], finishEarly: Self.t(7, 2))
        try #require(cut.count == 1)
        #expect(cut[0].closed)
        #expect(cut[0].items.filter { $0.isVideo }.count == Int(120 * 1.5))
    }
}

/// `OUTPUT` as the clips' template.
@Suite struct ClipNamesTests {
    @Test func templatesNumberClips() {
        #expect(ClipNames(template: "shot-%03d.mp4").name(7) == "shot-007.mp4")
        #expect(ClipNames(template: "shot-%d.mkv").name(12) == "shot-12.mkv")
        #expect(ClipNames(template: "a/b.c/take.mp4").name(2) == "a/b.c/take-002.mp4")
        #expect(ClipNames(template: "100%%-%02d.mov").name(3) == "100%-03.mov")
        #expect(ClipNames(template: "noext").name(1) == "noext-001")
        #expect(ClipNames.problem(in: "shot-%03d.mp4") == nil)
        #expect(ClipNames.problem(in: "%d-%d.mp4") != nil)
        #expect(ClipNames.problem(in: "%s.mp4") != nil)
        #expect(ClipNames.problem(in: "%123d.mp4") != nil)
    }
}

/// The motion trigger's measure on pictures made in memory.
@Suite struct MotionDetectorTests {
    static func score(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, region: PixelRegion? = nil) -> Double {
        var detector = MotionDetector(width: width, height: height, region: region)
        _ = a.withUnsafeBufferPointer { detector.score(luma: $0.baseAddress!, bytesPerLine: width) }
        return b.withUnsafeBufferPointer { detector.score(luma: $0.baseAddress!, bytesPerLine: width) }
    }

    @Test func aFlashScoresFullAndNoiseAlmostNothing() {
        let (w, h) = (640, 360)
        let black = [UInt8](repeating: 16, count: w * h)
        let white = [UInt8](repeating: 235, count: w * h)
        #expect(abs(Self.score(black, white, width: w, height: h) - 219.0 / 255 * 100) < 0.01)
        // ±8 levels of noise per pixel averages out in the cells.
        var rng = SystemRandomNumberGenerator()
        let noisy = black.map { $0 &+ UInt8.random(in: 0...16, using: &rng) &- 8 }
        #expect(Self.score(black, noisy, width: w, height: h) < 1)
        // A bright square over a quarter of the picture.
        var square = black
        for y in 0..<(h / 2) { for x in 0..<(w / 2) { square[y * w + x] = 235 } }
        let quarter = Self.score(black, square, width: w, height: h)
        #expect(abs(quarter - 219.0 / 255 * 100 / 4) < 1)
        // Watching only the other corner, it is not seen.
        let elsewhere = PixelRegion(x: w / 2, y: h / 2, width: w / 2, height: h / 2)
        #expect(Self.score(black, square, width: w, height: h, region: elsewhere) == 0)
    }
}
