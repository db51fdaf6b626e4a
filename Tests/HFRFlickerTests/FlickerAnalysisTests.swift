import Foundation
import HFRFlicker
import Testing

/// The flicker model on series made from a formula: brightness that is known, flicker that is known.
@Suite struct FlickerAnalysisTests {
    /// A series of `seconds` at `rate` whose band b at time t has brightness `light(t, b)`.
    static func series(rate: Double, seconds: Double, bands: Int = 16, light: (Double, Int) -> Double) -> FlickerSeries
    {
        var s = FlickerSeries(bandCount: bands)
        for i in 0..<Int(rate * seconds) {
            let t = 10 + Double(i) / rate
            let means = (0..<bands).map { light(t, $0) }
            s.add(BandMeans(bands: means, chroma: 0.1), time: t)
        }
        return s
    }

    static func flicker(_ t: Double, depth: Double = 0.15, hz: Double = 100) -> Double {
        1 + depth * sin(2 * Double.pi * hz * t)
    }

    @Test(arguments: [240.0, 120.0, 60.0, 30.0])
    func aHundredHertzFlickerIsFoundWithItsDepth(rate: Double) throws {
        let s = Self.series(rate: rate, seconds: 2) { t, b in (0.4 + 0.01 * Double(b)) * Self.flicker(t) }
        let m = try #require(FlickerAnalysis.detect(s, frequencies: [100, 120]))
        #expect(abs(m.measuredFrequency - 100) < 1)
        #expect(abs(m.depth - 0.15) < 0.02)
        #expect(!m.isBanded)
        // The gain taken out is the one put in, at every picture (between them an alias is no answer).
        for t in s.times {
            #expect(abs(exp(m.logGain(at: t, position: 0.3)) - Self.flicker(t)) < 0.002)
        }
    }

    @Test func aSteadyLightHasNoFlicker() {
        // Brightness that wanders slowly, as a scene's does, and a little noise (the same each run:
        // a hash of the time and band, not a random draw).
        let s = Self.series(rate: 240, seconds: 2) { t, b in
            let hash = sin(t * 12_989.8 + Double(b) * 78.233) * 43_758.5453
            return 0.4 + 0.05 * sin(t) + 0.004 * (hash - hash.rounded(.down) - 0.5)
        }
        #expect(FlickerAnalysis.detect(s, frequencies: [100, 120]) == nil)
    }

    @Test func aHundredTwentyHertzLightIsInvisibleAtOneHundredTwentyFramesPerSecond() {
        #expect(FlickerAnalysis.isInvisible(120, frameRate: 120))
        #expect(!FlickerAnalysis.isInvisible(100, frameRate: 120))
        let s = Self.series(rate: 120, seconds: 2) { t, _ in 0.4 * Self.flicker(t, hz: 120) }
        #expect(FlickerAnalysis.fit(s, frequency: 120) == nil)
    }

    @Test(arguments: [240.0, 120.0])
    func aStepOfLightIsKept(rate: Double) throws {
        let light = { (t: Double) in t < 11 ? 0.35 : 0.5 }
        let s = Self.series(rate: rate, seconds: 2) { t, _ in light(t) * Self.flicker(t) }
        let m = try #require(FlickerAnalysis.detect(s, frequencies: [100, 120]))
        // Every picture's brightness once corrected is the light's, to 1.5 levels of 255.
        for (t, means) in zip(s.times, s.means) {
            let corrected = means.frame / exp(m.logGain(at: t, position: 0.5))
            #expect(abs(corrected - light(t)) * 255 < 1.5, "at \(t)")
        }
    }

    @Test func rollingShutterBandsAreFittedRowByRow() throws {
        // The whole picture is read out in one frame period: band b is exposed b/16 of it later.
        let rate = 240.0
        let s = Self.series(rate: rate, seconds: 2) { t, b in 0.45 * Self.flicker(t + (Double(b) + 0.5) / 16 / rate) }
        let m = try #require(FlickerAnalysis.detect(s, frequencies: [100, 120]))
        #expect(m.isBanded)
        #expect(abs(m.depth - 0.15) < 0.02)
        for t in stride(from: 10.5, to: 11.5, by: 0.0173) {
            for y in [0.1, 0.37, 0.5, 0.81] {
                #expect(abs(exp(m.logGain(at: t, position: y)) - Self.flicker(t + y / rate)) < 0.004, "y \(y) t \(t)")
            }
        }
    }
}
