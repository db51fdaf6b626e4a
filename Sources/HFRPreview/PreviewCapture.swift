import Foundation
import HFRCapture
import HFRMedia
import HFRPipeline
import Synchronization

/// `hfr preview`'s capture: reads a source and offers its pictures to the preview, recording
/// nothing; counts what arrived for the page.
public final class PreviewCapture: Sendable {
    public let captured = Atomic<Int>(0)
    /// Frames the camera's driver dropped (-1: the source does not count them).
    public let droppedByDevice = Atomic<Int>(-1)
    public let started = Date()

    public init() {}

    /// Reads `input` until `shouldStop` says so or the source ends; rethrows what the source threw.
    public func run(_ input: any FrameSource, into tap: PreviewTap, shouldStop: () -> Bool) throws {
        while !shouldStop() {
            guard let item = try input.next() else { return }
            guard case .video(let frame, _) = item else { continue }
            captured.add(1, ordering: .relaxed)
            if let dropped = input.losses?.dropped { droppedByDevice.store(dropped, ordering: .relaxed) }
            tap.offer(frame, at: frame.pts.map { Rational.seconds($0, in: input.videoTimeBase).doubleValue })
        }
    }

    /// The live members `/status` shows for a preview without recording.
    public func members() -> [(String, JSONValue)] {
        let count = captured.load(ordering: .relaxed)
        let wall = Date().timeIntervalSince(started)
        let dropped = droppedByDevice.load(ordering: .relaxed)
        return [
            ("framesCaptured", .int(Int64(count))),
            ("framesDroppedByDevice", dropped >= 0 ? .int(Int64(dropped)) : .null),
            ("wallSeconds", .rounded(wall)), ("achievedFps", .rounded(wall > 0 ? Double(count) / wall : 0)),
        ]
    }
}
