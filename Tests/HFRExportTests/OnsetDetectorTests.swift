import Foundation
import HFRMedia
import Testing

@testable import HFRExport

/// Where stretches restart: the first sample of each sharp onset, found in made-up signals at
/// 48 kHz; slow rises and steady sound are no onsets.
@Suite struct OnsetDetectorTests {
    static let rate = 48000

    /// `seconds` of silence with `events` (start sample, length, amplitude) of a 1 kHz sine.
    static func signal(_ seconds: Double, _ events: [(Int, Int, Float)]) -> [Float] {
        var x = [Float](repeating: 0, count: Int(seconds * Double(rate)))
        for (start, length, amplitude) in events {
            for i in start..<min(x.count, start + length) {
                x[i] += amplitude * Float(sin(2 * Double.pi * 1000 * Double(i - start) / Double(rate)))
            }
        }
        return x
    }

    /// Fed in AAC-sized frames, as the export feeds it.
    static func onsets(_ planes: [[Float]]) -> [Int64] {
        var detector = OnsetDetector(sampleRate: rate)
        let chunk = AudioChunk(planes: planes)
        for start in stride(from: 0, to: chunk.count, by: 1024) {
            detector.feed(chunk.slice(start, min(start + 1024, chunk.count)))
        }
        detector.finish()
        return detector.onsets
    }

    @Test func beepsAfterSilenceStartAtTheirFirstRisingSample() {
        let starts = [24000, 72_117, 120_001]
        let x = Self.signal(3, starts.map { ($0, 960, 0.8) })
        // A sine from phase 0: its first sample is 0, the next one is the first above a tenth.
        #expect(Self.onsets([x]) == starts.map { Int64($0 + 1) })
    }

    /// AAC spreads quantisation noise up to a few ms ahead of a beep (measured 0.0126 in the
    /// millisecond before it): that block may count as the onset, the start is still the beep's.
    @Test func preEchoDoesNotMoveTheStart() {
        var x = Self.signal(1, [(24000, 960, 0.8)])
        for i in (24000 - 144)..<24000 { x[i] = 0.013 * Float(sin(Double(i) * 1.3)) }
        #expect(Self.onsets([x]) == [24001])
    }

    @Test func anOnsetInEitherChannelCountsForBoth() {
        let silence = [Float](repeating: 0, count: Self.rate)
        let right = Self.signal(1, [(30000, 960, 0.5)])
        #expect(Self.onsets([silence, right]) == [30001])
    }

    @Test func steadySoundSlowRisesAndQuietBlipsAreNoOnsets() {
        let rate = Double(Self.rate)
        // A tone throughout (its start is the one onset: its second sample is the first above a
        // tenth), a Gaussian burst rising over 60 ms, a beep under −40 dBFS.
        let tone = (0..<Self.rate * 2).map { i in Float(0.3 * sin(2 * Double.pi * 440 * Double(i) / rate)) }
        let burst = (0..<Self.rate * 2).map { i -> Float in
            let t = Double(i) / rate
            return Float(0.8 * exp(-pow((t - 1) / 0.03, 2)) * sin(2 * Double.pi * 440 * t))
        }
        let quiet = Self.signal(2, [(48000, 960, 0.008)])
        #expect(Self.onsets([tone]) == [2])
        #expect(Self.onsets([burst]).isEmpty)
        #expect(Self.onsets([quiet]).isEmpty)
    }

    @Test func onsetsWithin50MillisecondsAreOne() {
        let x = Self.signal(1, [(10000, 480, 0.2), (10000 + 1920, 480, 0.8), (10000 + 4800, 480, 0.8)])
        // The second beep is 40 ms after the first: one onset. The third one, 100 ms after it, is another.
        #expect(Self.onsets([x]) == [10001, 14801])
    }

    @Test func aLouderOnsetOverSoundStartsWhereItRisesAboveIt() {
        let x = Self.signal(1, [(0, 48000, 0.05), (30000, 960, 0.8)])
        let found = Self.onsets([x])
        #expect(found.count == 2)
        // Within a quarter period of the beep's start (where it first passes the tone).
        #expect(found.last.map { abs($0 - 30000) <= 12 } == true, "onset at \(found)")
    }
}
