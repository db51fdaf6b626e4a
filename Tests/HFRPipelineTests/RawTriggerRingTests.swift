import HFRMedia
import Testing

@testable import HFRPipeline

/// The raw pre-trigger ring (`--buffer ram` with triggers), on 30 fps frames of its own thread's
/// queues, run here to the end: which frames go on to the encoder, which are let go, what it holds.
@Suite struct RawTriggerRingTests {
    /// The result of one run over `seconds` of 30 fps frames with `triggers` posted before it.
    struct Run {
        var passed: [Int64]
        var discarded: Int
        var forwarded: [TriggerEvent]
        var peakBytes: Int
        var frameBytes: Int
    }

    static func run(seconds: Int, pre: Rational, post: Rational, triggers: [Rational]) throws -> Run {
        let board = TriggerBoard(
            settings: TriggerSettings(
                preTrigger: pre, postTrigger: post, kinds: [.signal], names: ClipNames(template: "clip.mp4")))
        board.post(triggers.map { TriggerEvent(time: $0, kind: .signal) })
        let forwarded = Locked<[TriggerEvent]>([])
        let ring = RawTriggerRing(board: board, inputTimeBase: Rational(1, 30), motion: nil, forwarded: forwarded)
        let count = seconds * 30
        let input = BoundedQueue<Frame>(capacity: count)
        let output = BoundedQueue<Frame>(capacity: count)
        var frameBytes = 0
        for n in 0..<count {
            let frame = try PipelinePictures.frame(pts: Int64(n))
            frameBytes = frame.byteCount
            _ = input.push(frame)
        }
        input.finish()
        ring.run(from: input, to: output)
        var passed: [Int64] = []
        while let frame = output.pop() { passed.append(frame.pts ?? -1) }
        return Run(
            passed: passed, discarded: ring.discarded, forwarded: forwarded.withLock { $0 },
            peakBytes: board.rawRingPeakBytes, frameBytes: frameBytes)
    }

    /// A trigger at 1.5 s keeps [1.0 s, 2.0 s): frames 30 to 59, in order; the other 60 are let go.
    @Test func theFramesOfATriggersWindowGoOnInOrder() throws {
        let run = try Self.run(seconds: 3, pre: Rational(1, 2), post: Rational(1, 2), triggers: [Rational(3, 2)])
        #expect(run.passed == Array(30..<60))
        #expect(run.discarded == 60)
        #expect(run.forwarded == [TriggerEvent(time: Rational(3, 2), kind: .signal)])
    }

    /// Windows that overlap are one: [0.5, 1.5) and [0.9, 1.9) pass frames 15 to 56 once each.
    @Test func overlappingWindowsPassEachFrameOnce() throws {
        let run = try Self.run(
            seconds: 3, pre: Rational(1, 2), post: Rational(1, 2), triggers: [Rational(7, 5), Rational(1)])
        #expect(run.passed == Array(15..<57))
        #expect(run.discarded == 90 - 42)
        #expect(run.forwarded.count == 2)
    }

    /// A window before the first frame starts at 0; one past the last frame takes what there is.
    @Test func windowsAreCutToTheRecording() throws {
        let run = try Self.run(
            seconds: 2, pre: Rational(1), post: Rational(1, 2), triggers: [Rational(1, 5), Rational(19, 10)])
        #expect(run.passed == Array(0..<21) + Array(27..<60))
    }

    /// Without a trigger nothing reaches the encoder, and the ring holds no more than the
    /// pre-trigger time and the late triggers' margin (`RawTriggerRing.capacity`).
    @Test func withoutATriggerNothingIsEncodedAndTheRingStaysBounded() throws {
        let pre = Rational(1, 2)
        let run = try Self.run(seconds: 3, pre: pre, post: Rational(1, 2), triggers: [])
        #expect(run.passed == [])
        #expect(run.discarded == 90)
        #expect(run.peakBytes > 0)
        #expect(run.peakBytes <= RawTriggerRing.capacity(pre: pre, rate: Rational(30)) * run.frameBytes)
        // 0.5 s + 0.25 s at 30 fps, and the frame arriving.
        #expect(run.peakBytes >= 23 * run.frameBytes)
    }

    /// When the encoder has gone (its queue cancelled), the ring stops and cancels the capture's queue.
    @Test func anEncoderGoneStopsTheRing() throws {
        let board = TriggerBoard(
            settings: TriggerSettings(
                preTrigger: Rational(1), postTrigger: Rational(1), kinds: [.signal],
                names: ClipNames(template: "clip.mp4")))
        board.post([TriggerEvent(time: Rational(0), kind: .signal)])
        let ring = RawTriggerRing(
            board: board, inputTimeBase: Rational(1, 30), motion: nil, forwarded: Locked<[TriggerEvent]>([]))
        let input = BoundedQueue<Frame>(capacity: 8)
        let output = BoundedQueue<Frame>(capacity: 8)
        output.cancel()
        for n in 0..<4 { _ = input.push(try PipelinePictures.frame(pts: Int64(n))) }
        ring.run(from: input, to: output)
        #expect(input.push(try PipelinePictures.frame(pts: 4)) == .cancelled)
    }

    @Test func theRingsCapacityCoversThePreTriggerTimeAndTheMargin() {
        #expect(RawTriggerRing.capacity(pre: Rational(1), rate: Rational(120)) == 152)
        #expect(RawTriggerRing.capacity(pre: Rational(0), rate: Rational(30)) == 10)
    }
}
