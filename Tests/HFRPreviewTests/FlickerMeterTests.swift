import Foundation
import HFRMedia
import Testing

@testable import HFRPreview

/// The preview's flicker meter on real pictures made in memory: flat grey under a known light.
@Suite struct FlickerMeterTests {
    /// Adds `count` 160x120 pictures at 240 fps lit by 1 + 0.15·sin(2π·100·t).
    static func feed(_ meter: FlickerMeter, count: Int) throws {
        let picture = try Frame.picture(width: 160, height: 120, format: .yuv420p)
        let (bytes, stride) = try #require(picture.plane(0))
        for i in 0..<count {
            let t = 5 + Double(i) / 240
            let level = UInt8((120 * (1 + 0.15 * sin(2 * Double.pi * 100 * t))).rounded())
            for row in 0..<120 { (bytes + row * stride).update(repeating: level, count: 160) }
            meter.add(picture, time: t)
        }
    }

    /// Past the ring's 1024 pictures (4.6 s at 240 fps) the last second is still read in order.
    @Test func readsTheLastSecondOncePicturesWrapAround() throws {
        let meter = FlickerMeter()
        meter.want()
        try Self.feed(meter, count: 1100)
        // The last 241 pictures, oldest first: one second from the newest, both ends included.
        let times = meter.kept.times
        #expect(times.count == 241 && times.last == 5 + 1099 / 240.0 && times == times.sorted(), "\(times)")
        meter.estimate()
        guard case .flicker(let frequency, let depth, let banded) = meter.reading else {
            Issue.record("read \(meter.reading)")
            return
        }
        #expect(abs(frequency - 100) <= 0.1 && abs(depth - 0.15) <= 0.005 && !banded, "\(meter.reading)")
    }

    /// Nobody asked: nothing is measured, the reading stays unknown (null).
    @Test func measuresNothingWhileNobodyAsks() throws {
        let meter = FlickerMeter()
        try Self.feed(meter, count: 300)
        meter.estimate()
        #expect(meter.reading == .unknown)
        #expect(meter.json.rendered == "null")
    }
}
