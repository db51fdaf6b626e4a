import Foundation
import HFRMedia
import Testing

@testable import HFRPipeline

/// The audio thread's end (issue 41, items 4 and 5), with FFmpeg's AAC encoder: whatever is left
/// to pad to the video's end, the encoder is given frames it takes — whole frames of its size, then
/// one shorter last one — so the track ends with the video and nothing fails. Before, the tail went
/// to the encoder as one frame, and a pad longer than 1024 samples made it refuse with EINVAL.
@Suite struct AudioEncodeStageTests {
    /// `samples` samples of a 48 kHz stereo tone at `pts` (samples from the first video frame).
    static func tone(_ samples: Int, at pts: Int64) throws -> CapturedAudio {
        let frame = try Frame.planarFloat(samples: samples, channels: 2, sampleRate: 48000)
        for channel in 0..<2 {
            let plane = frame.floatPlane(channel)
            for i in 0..<samples { plane[i] = 0.25 * Float(sin(Double(i) * 0.05)) }
        }
        frame.pts = pts
        return .samples(frame)
    }

    /// Runs a stage over `items`; what it reports, the samples it encoded, and the packets it sent.
    static func run(_ items: [CapturedAudio]) throws -> (AudioEncodeStage.Outcome, samples: Int, packets: Int) {
        let stats = RecordStats()
        let stage = try AudioEncodeStage(sampleRate: 48000, channels: 2, stats: stats)
        let captured = BoundedQueue<CapturedAudio>(capacity: items.count + 1)
        for item in items { _ = captured.push(item) }
        captured.finish()
        let mux = BoundedQueue<MuxItem>(capacity: 4096)
        let outcome = stage.run(from: captured, to: mux)
        var packets = 0
        while mux.pop() != nil { packets += 1 }
        return (outcome, stats.audioSamples.load(ordering: .relaxed), packets)
    }

    /// (samples captured, video end in samples): the issue's sound of 0.05 s under 1 s of video
    /// (45 600 samples of pad); the Ctrl-C measured in a triggered recording at 30 fps (58 whole
    /// frames, 1408 samples of pad); a pad of exactly one frame; none, with a short last frame.
    @Test(arguments: [(2400, 48000), (59392, 60800), (4096, 5120), (1000, 1000)])
    func theTailIsPaddedToTheVideosEndInFramesTheEncoderTakes(captured: Int, end: Int) throws {
        let (outcome, samples, packets) = try Self.run([
            try Self.tone(captured, at: 0), .videoEnd(Rational(Int64(end), 48000)),
        ])
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
        #expect(samples == end)
        #expect(outcome.sourceEnd == Int64(captured) && outcome.target == Int64(end))
        #expect(outcome.silence == Int64(end - captured))
        // Every sample encoded comes out (the encoder's priming frame and tail included).
        #expect(packets >= (end + 1023) / 1024)
    }

    /// A stall: a quarter second, silence filled while the source sent nothing (as the capture
    /// does once the audio lags the video by a second), then the source again at 2 s, ending with
    /// the video at 2.5 s: one track of 2.5 s, 1.75 s of it silence, and no shortfall to report.
    @Test func aStallIsFilledWithSilenceAndTheSourceGoesOnInItsPlace() throws {
        let (outcome, samples, _) = try Self.run([
            try Self.tone(12000, at: 0), .silence(until: Rational(3, 2)), try Self.tone(24000, at: 96000),
            .videoEnd(Rational(5, 2)),
        ])
        #expect(outcome.failure == nil)
        #expect(samples == 120_000)
        #expect(outcome.silence == 84000)
        #expect(outcome.sourceEnd == 120_000)
        #expect(AudioShortfall.from(outcome, sampleRate: 48000, sourceFailure: nil) == nil)
    }

    /// Audio that ended at 0.05 s under a second of video is reported: where, why, and that the
    /// track goes on in silence.
    @Test func audioThatEndedEarlyIsReported() throws {
        let (outcome, _, _) = try Self.run([try Self.tone(2400, at: 0), .videoEnd(Rational(1))])
        let shortfall = try #require(AudioShortfall.from(outcome, sampleRate: 48000, sourceFailure: nil))
        #expect(shortfall.at == Rational(1, 20) && shortfall.cause == .endOfSource && shortfall.isPadded)
    }
}
